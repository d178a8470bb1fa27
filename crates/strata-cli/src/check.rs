//! `strata check FILE`: read everything and report each problem on its own
//! line.
//!
//! 1. Every page of every column chunk through the page reader, with page
//!    CRCs verified; the values of the data pages must add up to the
//!    chunk's `num_values`.
//! 2. Every row group through the Arrow reader; the rows read must match
//!    the row group's `num_rows`, and the row groups the file's.
//! 3. The chunk's `null_count` must equal the nulls read: for flat columns
//!    (top-level, not repeated) the nulls of the Arrow arrays, for nested
//!    columns the definition levels below the maximum.
//! 4. For flat columns read as a plain Arrow type, the chunk's min/max must
//!    bound the values read.

use std::cmp::Ordering;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type,
    UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef};
use arrow_schema::{DataType, TimeUnit as ArrowTimeUnit};
use strata_arrow::ProjectionMask;
use strata_arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use strata_encoding::LevelDecoder;
use strata_file::page::Page;
use strata_file::properties::ReaderProperties;
use strata_file::serialized_reader::{ReadOptionsBuilder, SerializedFileReader};
use strata_file::statistics::ValueOrder;
use strata_format::ColumnDescriptor;
use strata_format::metadata::{Encoding, FieldRepetitionType, Statistics, Type};

use crate::values::{format_stat, le_array, stat_bounds};

/// A value read, in the order its column's statistics use.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Bool(bool),
    Signed(i64),
    Unsigned(u64),
    Float(f64),
    Bytes(Vec<u8>),
}

fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Bool(a), Value::Bool(b)) => Some(a.cmp(b)),
        (Value::Signed(a), Value::Signed(b)) => Some(a.cmp(b)),
        (Value::Unsigned(a), Value::Unsigned(b)) => Some(a.cmp(b)),
        (Value::Float(a), Value::Float(b)) => a.partial_cmp(b),
        (Value::Bytes(a), Value::Bytes(b)) => Some(a.cmp(b)),
        _ => None,
    }
}

/// How the values of a flat column compare with its statistics, or `None`
/// where this check does not know (then only null counts are checked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bool,
    Signed,
    Unsigned,
    Float,
    Bytes,
}

fn kind_of(descr: &ColumnDescriptor, arrow: &DataType) -> Option<Kind> {
    let order = ValueOrder::of(descr);
    let physical = descr.physical_type;
    let int = matches!(physical, Type::Int32 | Type::Int64);
    match (order, arrow) {
        (ValueOrder::Boolean, DataType::Boolean) => Some(Kind::Bool),
        (
            ValueOrder::SignedInt,
            DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64 | DataType::Date32,
        ) if int => Some(Kind::Signed),
        (
            ValueOrder::UnsignedInt,
            DataType::UInt8 | DataType::UInt16 | DataType::UInt32 | DataType::UInt64,
        ) if int => Some(Kind::Unsigned),
        (ValueOrder::Float, DataType::Float32 | DataType::Float64) => Some(Kind::Float),
        (
            ValueOrder::Bytes,
            DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
            | DataType::Binary
            | DataType::LargeBinary
            | DataType::BinaryView
            | DataType::FixedSizeBinary(_),
        ) => Some(Kind::Bytes),
        (ValueOrder::SignedInt, DataType::Timestamp(unit, _)) if int => {
            // Second timestamps are stored as milliseconds.
            (*unit != ArrowTimeUnit::Second).then_some(Kind::Signed)
        }
        _ => None,
    }
}

/// A statistics bound as a [`Value`] of `kind`.
fn stat_value(descr: &ColumnDescriptor, kind: Kind, bytes: &[u8]) -> Option<Value> {
    Some(match (kind, descr.physical_type) {
        (Kind::Bool, _) => Value::Bool(*bytes.first()? != 0),
        (Kind::Signed, Type::Int32) => {
            Value::Signed(i64::from(i32::from_le_bytes(le_array(bytes)?)))
        }
        (Kind::Signed, Type::Int64) => Value::Signed(i64::from_le_bytes(le_array(bytes)?)),
        (Kind::Unsigned, Type::Int32) => {
            Value::Unsigned(u64::from(u32::from_le_bytes(le_array(bytes)?)))
        }
        (Kind::Unsigned, Type::Int64) => Value::Unsigned(u64::from_le_bytes(le_array(bytes)?)),
        (Kind::Float, Type::Float) => Value::Float(f64::from(f32::from_le_bytes(le_array(bytes)?))),
        (Kind::Float, Type::Double) => Value::Float(f64::from_le_bytes(le_array(bytes)?)),
        (Kind::Bytes, _) => Value::Bytes(bytes.to_vec()),
        _ => return None,
    })
}

/// The smallest and largest non-null values of an array (NaN skipped).
fn array_min_max(array: &ArrayRef, kind: Kind) -> Option<(Value, Value)> {
    let mut min: Option<Value> = None;
    let mut max: Option<Value> = None;
    let mut see = |v: Value| {
        if min
            .as_ref()
            .is_none_or(|m| compare(&v, m) == Some(Ordering::Less))
        {
            min = Some(v.clone());
        }
        if max
            .as_ref()
            .is_none_or(|m| compare(&v, m) == Some(Ordering::Greater))
        {
            max = Some(v);
        }
    };
    macro_rules! each {
        ($ty:ty, $wrap:expr) => {
            for v in array.as_primitive::<$ty>().iter().flatten() {
                see($wrap(v));
            }
        };
    }
    match (kind, array.data_type()) {
        (Kind::Bool, _) => {
            for v in array.as_boolean().iter().flatten() {
                see(Value::Bool(v));
            }
        }
        (_, DataType::Int8) => each!(Int8Type, |v| Value::Signed(i64::from(v))),
        (_, DataType::Int16) => each!(Int16Type, |v| Value::Signed(i64::from(v))),
        (_, DataType::Int32) => each!(Int32Type, |v| Value::Signed(i64::from(v))),
        (_, DataType::Int64) => each!(Int64Type, Value::Signed),
        (_, DataType::Date32) => each!(Date32Type, |v| Value::Signed(i64::from(v))),
        (_, DataType::Timestamp(_, _)) => {
            let ints = arrow_cast::cast(array, &DataType::Int64).ok()?;
            for v in ints.as_primitive::<Int64Type>().iter().flatten() {
                see(Value::Signed(v));
            }
        }
        (_, DataType::UInt8) => each!(UInt8Type, |v| Value::Unsigned(u64::from(v))),
        (_, DataType::UInt16) => each!(UInt16Type, |v| Value::Unsigned(u64::from(v))),
        (_, DataType::UInt32) => each!(UInt32Type, |v| Value::Unsigned(u64::from(v))),
        (_, DataType::UInt64) => each!(UInt64Type, Value::Unsigned),
        (_, DataType::Float32) => {
            for v in array.as_primitive::<Float32Type>().iter().flatten() {
                if !v.is_nan() {
                    see(Value::Float(f64::from(v)));
                }
            }
        }
        (_, DataType::Float64) => {
            for v in array.as_primitive::<Float64Type>().iter().flatten() {
                if !v.is_nan() {
                    see(Value::Float(v));
                }
            }
        }
        (_, DataType::Utf8) => {
            for v in array.as_string::<i32>().iter().flatten() {
                see(Value::Bytes(v.as_bytes().to_vec()));
            }
        }
        (_, DataType::LargeUtf8) => {
            for v in array.as_string::<i64>().iter().flatten() {
                see(Value::Bytes(v.as_bytes().to_vec()));
            }
        }
        (_, DataType::Utf8View) => {
            for v in array.as_string_view().iter().flatten() {
                see(Value::Bytes(v.as_bytes().to_vec()));
            }
        }
        (_, DataType::Binary) => {
            for v in array.as_binary::<i32>().iter().flatten() {
                see(Value::Bytes(v.to_vec()));
            }
        }
        (_, DataType::LargeBinary) => {
            for v in array.as_binary::<i64>().iter().flatten() {
                see(Value::Bytes(v.to_vec()));
            }
        }
        (_, DataType::BinaryView) => {
            for v in array.as_binary_view().iter().flatten() {
                see(Value::Bytes(v.to_vec()));
            }
        }
        (_, DataType::FixedSizeBinary(_)) => {
            for v in array.as_fixed_size_binary().iter().flatten() {
                see(Value::Bytes(v.to_vec()));
            }
        }
        _ => return None,
    }
    Some((min?, max?))
}

/// What was read of one flat column in one row group.
#[derive(Debug, Default)]
struct Seen {
    nulls: u64,
    min: Option<Value>,
    max: Option<Value>,
}

impl Seen {
    fn add(&mut self, array: &ArrayRef, kind: Option<Kind>) {
        self.nulls += array.null_count() as u64;
        let Some(kind) = kind else { return };
        if let Some((lo, hi)) = array_min_max(array, kind) {
            if self
                .min
                .as_ref()
                .is_none_or(|m| compare(&lo, m) == Some(Ordering::Less))
            {
                self.min = Some(lo);
            }
            if self
                .max
                .as_ref()
                .is_none_or(|m| compare(&hi, m) == Some(Ordering::Greater))
            {
                self.max = Some(hi);
            }
        }
    }
}

fn show(descr: &ColumnDescriptor, v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Signed(i) => i.to_string(),
        Value::Unsigned(u) => u.to_string(),
        Value::Float(f) => format!("{f:?}"),
        Value::Bytes(b) => format_stat(descr, b),
    }
}

/// Collects problems, printing each on its own line as it is found.
struct Report {
    problems: usize,
    path: String,
}

impl Report {
    fn problem(&mut self, message: impl AsRef<str>) {
        self.problems += 1;
        // A closed stdout must not stop the check (println! would panic).
        let _ = writeln!(
            std::io::stdout(),
            "{}: {}",
            self.path,
            crate::one_line(message.as_ref())
        );
    }
}

/// `strata check FILE`: exit code 0 when clean, 1 when problems were found.
pub fn check(path: &Path) -> ExitCode {
    let mut report = Report {
        problems: 0,
        path: path.display().to_string(),
    };
    run(path, &mut report);
    if report.problems == 0 {
        let _ = writeln!(std::io::stdout(), "{}: ok", report.path);
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "strata: {} problem{} found in {}",
            report.problems,
            if report.problems == 1 { "" } else { "s" },
            report.path
        );
        ExitCode::FAILURE
    }
}

fn run(path: &Path, report: &mut Report) {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) => return report.problem(format!("cannot open: {e}")),
    };
    let props = ReaderProperties::builder()
        .set_page_crc_verification(true)
        .build();
    let options = ReadOptionsBuilder::new()
        .with_reader_properties(props)
        .build();
    let reader = match SerializedFileReader::new_with_options(file, options) {
        Ok(r) => r,
        Err(e) => return report.problem(format!("cannot read the footer: {e}")),
    };
    check_pages(&reader, report);
    check_rows(path, &reader, report);
}

/// Every page of every chunk, CRCs verified.
fn check_pages(reader: &SerializedFileReader<File>, report: &mut Report) {
    let md = reader.footer();
    let total: i64 = md.row_groups.iter().map(|g| g.num_rows).sum();
    if total != md.num_rows {
        report.problem(format!(
            "the file says {} rows, its row groups hold {total}",
            md.num_rows
        ));
    }
    for i in 0..reader.num_row_groups() {
        let rg = match reader.row_group(i) {
            Ok(rg) => rg,
            Err(e) => {
                report.problem(format!("row group {i}: {e}"));
                continue;
            }
        };
        for j in 0..rg.num_columns() {
            let name = rg
                .column_descriptor(j)
                .map(|d| d.path.string())
                .unwrap_or_else(|_| format!("#{j}"));
            let at = format!("row group {i}, column {name}");
            let (pages, expected) = match rg
                .column_metadata(j)
                .and_then(|m| Ok((rg.page_reader(j)?, m.num_values)))
            {
                Ok(p) => p,
                Err(e) => {
                    report.problem(format!("{at}: {e}"));
                    continue;
                }
            };
            let descr = rg.column_descriptor(j).ok();
            // Nulls of nested columns are counted from the definition
            // levels here (flat columns are checked against Arrow arrays).
            let nested = descr.filter(|d| d.path.parts().len() > 1 || d.max_rep_level > 0);
            let mut values = 0i64;
            let mut nulls = (0u64, 0u64);
            let mut failed = false;
            for (k, page) in pages.enumerate() {
                let counted = page.map_err(|e| e.to_string()).and_then(|page| {
                    if !page.is_dictionary() {
                        values += i64::from(page.num_values());
                        if let Some(d) = nested {
                            let (below, leaf) = page_nulls(&page, d)?;
                            nulls.0 += below;
                            nulls.1 += leaf;
                        }
                    }
                    Ok(())
                });
                if let Err(e) = counted {
                    report.problem(format!("{at}, page {k}: {e}"));
                    failed = true;
                    break;
                }
            }
            if failed {
                continue;
            }
            if values != expected {
                report.problem(format!(
                    "{at}: the data pages hold {values} values, the chunk says {expected}"
                ));
            }
            if nested.is_some()
                && let Some(stated) = rg
                    .column_metadata(j)
                    .ok()
                    .and_then(|m| m.statistics.as_ref())
                    .and_then(|s| s.null_count)
                && u64::try_from(stated).is_ok_and(|n| n != nulls.0 && n != nulls.1)
            {
                report.problem(format!(
                    "{at}: statistics say {stated} nulls, the definition levels hold {} (null leaves: {})",
                    nulls.0, nulls.1
                ));
            }
        }
    }
}

/// The nulls of a data page of a nested column, counted both ways writers
/// count them: every definition level below the maximum (null or empty
/// ancestors too), and only the levels of null leaves.
fn page_nulls(page: &Page, d: &ColumnDescriptor) -> std::result::Result<(u64, u64), String> {
    let (max_def, max_rep) = (d.max_def_level, d.max_rep_level);
    if max_def == 0 {
        return Ok((0, 0));
    }
    let leaf_null = (d.repetition == FieldRepetitionType::Optional).then_some(max_def - 1);
    let err = |e: strata_encoding::EncodingError| format!("definition levels: {e}");
    let mut decoder = LevelDecoder::new(max_def).map_err(err)?;
    let num_values = page.num_values() as usize;
    match page {
        Page::DataPage {
            buf,
            def_level_encoding,
            rep_level_encoding,
            ..
        } => {
            let mut offset = 0usize;
            if max_rep > 0 {
                let mut rep = LevelDecoder::new(max_rep).map_err(err)?;
                offset = match rep_level_encoding {
                    Encoding::BitPacked => rep.set_bit_packed(buf, num_values),
                    _ => rep.set_rle_v1(buf, num_values),
                }
                .map_err(err)?;
            }
            let rest = buf.get(offset..).unwrap_or_default();
            match def_level_encoding {
                Encoding::BitPacked => decoder.set_bit_packed(rest, num_values),
                _ => decoder.set_rle_v1(rest, num_values),
            }
            .map_err(err)?;
        }
        Page::DataPageV2 {
            buf,
            def_levels_byte_len,
            rep_levels_byte_len,
            ..
        } => {
            let start = *rep_levels_byte_len as usize;
            let end = start + *def_levels_byte_len as usize;
            let levels = buf
                .get(start..end)
                .ok_or_else(|| "definition levels outside the page".to_string())?;
            decoder.set_rle_v2(levels, num_values).map_err(err)?;
        }
        Page::DictionaryPage { .. } => return Ok((0, 0)),
    }
    let mut levels = vec![0i16; 4096];
    let mut nulls = (0u64, 0u64);
    let mut left = num_values;
    while left > 0 {
        let n = decoder.decode(&mut levels).map_err(err)?;
        if n == 0 {
            return Err(format!("definition levels end {left} levels early"));
        }
        for &l in levels.iter().take(n) {
            nulls.0 += u64::from(l < max_def);
            nulls.1 += u64::from(Some(l) == leaf_null);
        }
        left = left.saturating_sub(n);
    }
    Ok(nulls)
}

/// Every row group through the Arrow reader, with the statistics of flat
/// columns checked against what was read.
fn check_rows(path: &Path, reader: &SerializedFileReader<File>, report: &mut Report) {
    let schema = reader.schema();
    for i in 0..reader.num_row_groups() {
        let Ok(rg) = reader.row_group(i) else {
            continue; // Reported by check_pages.
        };
        let builder = match File::open(path)
            .map_err(|e| e.to_string())
            .and_then(|f| ParquetRecordBatchReaderBuilder::try_new(f).map_err(|e| e.to_string()))
        {
            Ok(b) => b,
            Err(e) => return report.problem(format!("the Arrow reader cannot open the file: {e}")),
        };
        let arrow_schema = builder.schema().clone();
        // Flat columns: leaf j is root field j's only leaf, not repeated.
        let flat: Vec<(usize, usize, Option<Kind>)> = schema
            .columns()
            .iter()
            .enumerate()
            .filter(|(_, d)| d.path.parts().len() == 1 && d.max_rep_level == 0)
            .filter_map(|(j, d)| {
                let field = arrow_schema.fields().get(d.root_field_index)?;
                Some((j, d.root_field_index, kind_of(d, field.data_type())))
            })
            .collect();
        let mut seen: Vec<Seen> = flat.iter().map(|_| Seen::default()).collect();
        let reader = match builder
            .with_row_groups(vec![i])
            .with_projection(ProjectionMask::all())
            .with_batch_size(8192)
            .build()
        {
            Ok(r) => r,
            Err(e) => {
                report.problem(format!("row group {i}: the Arrow reader failed: {e}"));
                continue;
            }
        };
        let mut rows = 0i64;
        let mut failed = false;
        for batch in reader {
            match batch {
                Ok(batch) => {
                    rows += batch.num_rows() as i64;
                    for ((_, root, kind), seen) in flat.iter().zip(seen.iter_mut()) {
                        if let Some(array) = batch.columns().get(*root) {
                            seen.add(array, *kind);
                        }
                    }
                }
                Err(e) => {
                    report.problem(format!(
                        "row group {i}: reading rows failed after {rows}: {e}"
                    ));
                    failed = true;
                    break;
                }
            }
        }
        if failed {
            continue;
        }
        if rows != rg.num_rows() {
            report.problem(format!(
                "row group {i}: {rows} rows read, the row group says {}",
                rg.num_rows()
            ));
        }
        for ((j, _, kind), seen) in flat.iter().zip(&seen) {
            let (Ok(descr), Ok(meta)) = (rg.column_descriptor(*j), rg.column_metadata(*j)) else {
                continue;
            };
            if let Some(stats) = &meta.statistics {
                check_stats(report, i, descr, stats, seen, *kind);
            }
        }
    }
}

fn check_stats(
    report: &mut Report,
    i: usize,
    descr: &ColumnDescriptor,
    stats: &Statistics,
    seen: &Seen,
    kind: Option<Kind>,
) {
    let at = format!("row group {i}, column {}", descr.path.string());
    if let Some(nulls) = stats.null_count
        && u64::try_from(nulls).ok() != Some(seen.nulls)
    {
        report.problem(format!(
            "{at}: statistics say {nulls} nulls, {} were read",
            seen.nulls
        ));
    }
    let Some(kind) = kind else { return };
    let (min, max) = stat_bounds(descr, stats);
    if let (Some(bound), Some(actual)) = (min.and_then(|b| stat_value(descr, kind, b)), &seen.min)
        && compare(&bound, actual) == Some(Ordering::Greater)
    {
        report.problem(format!(
            "{at}: statistics min {} is above the smallest value read, {}",
            show(descr, &bound),
            show(descr, actual)
        ));
    }
    if let (Some(bound), Some(actual)) = (max.and_then(|b| stat_value(descr, kind, b)), &seen.max)
        && compare(&bound, actual) == Some(Ordering::Less)
    {
        report.problem(format!(
            "{at}: statistics max {} is below the largest value read, {}",
            show(descr, &bound),
            show(descr, actual)
        ));
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::Int32Array;
    use strata_format::ColumnPath;

    use super::*;

    fn int32_column() -> ColumnDescriptor {
        let leaf = strata_format::schema::Type::primitive_type_builder("x", Type::Int32)
            .with_repetition(FieldRepetitionType::Optional)
            .build()
            .unwrap();
        ColumnDescriptor::new(Arc::new(leaf), 1, 0, ColumnPath::from("x"))
    }

    fn stats(nulls: i64, min: i32, max: i32) -> Statistics {
        let mut s = Statistics::default();
        s.null_count = Some(nulls);
        s.set_min_value(Some(&min.to_le_bytes())).unwrap();
        s.set_max_value(Some(&max.to_le_bytes())).unwrap();
        s
    }

    #[test]
    fn statistics_are_checked_against_values() {
        let descr = int32_column();
        let kind = kind_of(&descr, &DataType::Int32);
        assert_eq!(kind, Some(Kind::Signed));
        let array: ArrayRef = Arc::new(Int32Array::from(vec![Some(3), None, Some(-2), Some(7)]));
        let mut seen = Seen::default();
        seen.add(&array, kind);
        assert_eq!(seen.nulls, 1);
        assert_eq!(seen.min, Some(Value::Signed(-2)));
        assert_eq!(seen.max, Some(Value::Signed(7)));

        let mut report = Report {
            problems: 0,
            path: "test".into(),
        };
        // Exact and looser bounds are fine.
        check_stats(&mut report, 0, &descr, &stats(1, -2, 7), &seen, kind);
        check_stats(&mut report, 0, &descr, &stats(1, -5, 9), &seen, kind);
        assert_eq!(report.problems, 0);
        // A wrong null count, a min above a value, a max below a value.
        check_stats(&mut report, 0, &descr, &stats(0, -2, 7), &seen, kind);
        assert_eq!(report.problems, 1);
        check_stats(&mut report, 0, &descr, &stats(1, 0, 7), &seen, kind);
        assert_eq!(report.problems, 2);
        check_stats(&mut report, 0, &descr, &stats(1, -2, 6), &seen, kind);
        assert_eq!(report.problems, 3);
    }
}
