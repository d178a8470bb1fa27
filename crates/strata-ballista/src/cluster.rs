//! A Ballista scheduler and executor with strata's codec registered: what
//! the `strata-ballista` binary runs, one process per role.
//!
//! Both bind to the host given (127.0.0.1 by default) and advertise that
//! same address, so that executors, the scheduler and clients reach each
//! other by it. An executor tries to reach its scheduler once and stops
//! with an error if it cannot: start the scheduler first.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use ballista_core::error::{BallistaError, Result};
use ballista_executor::executor_process::{ExecutorProcessConfig, start_executor_process};
use ballista_scheduler::cluster::BallistaCluster;
use ballista_scheduler::config::SchedulerConfig;
use ballista_scheduler::scheduler_process::start_server;

use crate::physical_codec;

/// Where a scheduler listens.
#[derive(Debug, Clone)]
pub struct SchedulerSettings {
    /// The address it binds and advertises.
    pub host: String,
    /// Its gRPC port, which executors and clients dial.
    pub port: u16,
}

impl Default for SchedulerSettings {
    fn default() -> Self {
        Self {
            host: "127.0.0.1".into(),
            port: 50050,
        }
    }
}

/// Runs a scheduler until the process is interrupted (Ctrl-C).
pub async fn run_scheduler(settings: SchedulerSettings) -> Result<()> {
    let mut config = SchedulerConfig::default()
        .with_hostname(&settings.host)
        .with_port(settings.port);
    config.bind_host = settings.host.clone();
    config.override_physical_codec = Some(physical_codec());
    let address: SocketAddr = format!("{}:{}", settings.host, settings.port)
        .parse()
        .map_err(|e| BallistaError::Configuration(format!("scheduler address: {e}")))?;
    let cluster = BallistaCluster::new_from_config(&config).await?;
    tokio::select! {
        served = start_server(cluster, address, Arc::new(config)) => served,
        _ = tokio::signal::ctrl_c() => Ok(()),
    }
}

/// Where an executor listens and which scheduler it serves.
#[derive(Debug, Clone)]
pub struct ExecutorSettings {
    /// The address it binds and advertises.
    pub host: String,
    /// Its Arrow Flight port: shuffle data and results are fetched there.
    pub flight_port: u16,
    /// Its gRPC port: the scheduler hands it tasks there.
    pub grpc_port: u16,
    /// The scheduler's host.
    pub scheduler_host: String,
    /// The scheduler's port.
    pub scheduler_port: u16,
    /// Tasks run at once.
    pub concurrent_tasks: usize,
    /// Where shuffle files and spills go; must exist, one per executor.
    pub work_dir: PathBuf,
}

/// Runs an executor until the process is interrupted (Ctrl-C or SIGTERM).
pub async fn run_executor(settings: ExecutorSettings) -> Result<()> {
    let work_dir = settings.work_dir.to_str().ok_or_else(|| {
        BallistaError::Configuration(format!(
            "work directory {} is not UTF-8",
            settings.work_dir.display()
        ))
    })?;
    let config = ExecutorProcessConfig {
        bind_host: settings.host.clone(),
        external_host: Some(settings.host.clone()),
        port: settings.flight_port,
        grpc_port: settings.grpc_port,
        scheduler_host: settings.scheduler_host.clone(),
        scheduler_port: settings.scheduler_port,
        vcores: settings.concurrent_tasks.max(1),
        work_dir: Some(work_dir.to_owned()),
        override_physical_codec: Some(physical_codec()),
        ..Default::default()
    };
    start_executor_process(Arc::new(config)).await
}
