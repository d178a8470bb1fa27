//! `strata-ballista`: a Ballista scheduler or executor that reads and
//! writes Parquet with strata.
//!
//! ```text
//! strata-ballista scheduler [--host H] [--port P]
//! strata-ballista executor [--host H] --flight-port P --grpc-port P
//!     [--scheduler-host H] [--scheduler-port P] [--concurrent-tasks N] --work-dir DIR
//! ```
//!
//! Both run until interrupted (Ctrl-C; an executor also stops on SIGTERM).

#![forbid(unsafe_code)]

use std::process::ExitCode;

use strata_ballista::cluster::{ExecutorSettings, SchedulerSettings, run_executor, run_scheduler};

const USAGE: &str = "usage: strata-ballista scheduler [--host H] [--port P]\n\
       strata-ballista executor [--host H] --flight-port P --grpc-port P \
       [--scheduler-host H] [--scheduler-port P] [--concurrent-tasks N] --work-dir DIR";

/// The `--name value` pairs after the role.
fn flags(args: &[String]) -> Result<Vec<(&str, &str)>, String> {
    args.chunks(2)
        .map(|pair| match pair {
            [name, value] if name.starts_with("--") => Ok((&name[2..], value.as_str())),
            _ => Err(format!("expected --name value, got {pair:?}")),
        })
        .collect()
}

fn number<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("--{name} needs a number, got {value:?}"))
}

fn scheduler(args: &[String]) -> Result<SchedulerSettings, String> {
    let mut settings = SchedulerSettings::default();
    for (name, value) in flags(args)? {
        match name {
            "host" => settings.host = value.to_owned(),
            "port" => settings.port = number(name, value)?,
            _ => return Err(format!("unknown flag --{name}")),
        }
    }
    Ok(settings)
}

fn executor(args: &[String]) -> Result<ExecutorSettings, String> {
    let mut host = "127.0.0.1".to_owned();
    let mut scheduler_host = None;
    let (mut flight_port, mut grpc_port, mut scheduler_port) = (None, None, 50050);
    let mut concurrent_tasks = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut work_dir = None;
    for (name, value) in flags(args)? {
        match name {
            "host" => host = value.to_owned(),
            "flight-port" => flight_port = Some(number(name, value)?),
            "grpc-port" => grpc_port = Some(number(name, value)?),
            "scheduler-host" => scheduler_host = Some(value.to_owned()),
            "scheduler-port" => scheduler_port = number(name, value)?,
            "concurrent-tasks" => concurrent_tasks = number(name, value)?,
            "work-dir" => work_dir = Some(value.into()),
            _ => return Err(format!("unknown flag --{name}")),
        }
    }
    Ok(ExecutorSettings {
        scheduler_host: scheduler_host.unwrap_or_else(|| host.clone()),
        host,
        flight_port: flight_port.ok_or("--flight-port is required")?,
        grpc_port: grpc_port.ok_or("--grpc-port is required")?,
        scheduler_port,
        concurrent_tasks,
        work_dir: work_dir.ok_or("--work-dir is required")?,
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Deep plans recurse while they are encoded and decoded.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(32 * 1024 * 1024)
        .build();
    let runtime = match runtime {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("strata-ballista: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = match args.first().map(String::as_str) {
        Some("scheduler") => scheduler(&args[1..]).map(|settings| {
            eprintln!(
                "strata-ballista: scheduler on {}:{}",
                settings.host, settings.port
            );
            runtime.block_on(run_scheduler(settings))
        }),
        Some("executor") => executor(&args[1..]).map(|settings| {
            eprintln!(
                "strata-ballista: executor on {}:{} (Flight) and {} (tasks), scheduler {}:{}",
                settings.host,
                settings.flight_port,
                settings.grpc_port,
                settings.scheduler_host,
                settings.scheduler_port
            );
            runtime.block_on(run_executor(settings))
        }),
        _ => Err(USAGE.to_owned()),
    };
    match outcome {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("strata-ballista: {e}");
            ExitCode::FAILURE
        }
        Err(usage) => {
            eprintln!("strata-ballista: {usage}");
            ExitCode::from(2)
        }
    }
}
