//! Helpers shared by the write tests: schemas, value generation, writing
//! through strata and reading back through arrow-rs `parquet`.
#![allow(dead_code)]

use std::sync::Arc;

use bytes::Bytes;
use parquet::column::reader::ColumnReader;
use parquet::file::reader::{FileReader, RowGroupReader, SerializedFileReader};
use strata_encoding::{ByteArrayBatch, FixedLenBatch, Int96};
use strata_file::properties::WriterProperties;
use strata_file::writer::{ColumnWriter, FileWriter};
use strata_format::SchemaDescriptor;
use strata_format::metadata::{
    ConvertedType, FieldRepetitionType as Rep, FileMetaData, LogicalType, SchemaElement, Type,
};

pub const FLBA_WIDTH: i32 = 5;

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
}

/// How the leaf is nested.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nesting {
    /// `required T x`
    Required,
    /// `optional T x`
    Optional,
    /// `repeated group a { optional T x }`
    Repeated,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nulls {
    None,
    Some,
    All,
}

pub fn leaf(name: &str, ty: Type, rep: Rep) -> SchemaElement {
    SchemaElement {
        name: name.into(),
        physical_type: Some(ty),
        repetition_type: Some(rep),
        type_length: (ty == Type::FixedLenByteArray).then_some(FLBA_WIDTH),
        ..Default::default()
    }
}

pub fn root(children: i32) -> SchemaElement {
    SchemaElement {
        name: "schema".into(),
        num_children: Some(children),
        ..Default::default()
    }
}

pub fn schema_for(ty: Type, nesting: Nesting) -> Arc<SchemaDescriptor> {
    let elements = match nesting {
        Nesting::Required => vec![root(1), leaf("x", ty, Rep::Required)],
        Nesting::Optional => vec![root(1), leaf("x", ty, Rep::Optional)],
        Nesting::Repeated => vec![
            root(1),
            SchemaElement {
                name: "a".into(),
                repetition_type: Some(Rep::Repeated),
                num_children: Some(1),
                ..Default::default()
            },
            leaf("x", ty, Rep::Optional),
        ],
    };
    Arc::new(SchemaDescriptor::from_elements(&elements).unwrap())
}

pub fn schema_from(elements: &[SchemaElement]) -> Arc<SchemaDescriptor> {
    Arc::new(SchemaDescriptor::from_elements(elements).unwrap())
}

/// A UTF-8 string leaf.
pub fn string_leaf(name: &str, rep: Rep) -> SchemaElement {
    SchemaElement {
        logical_type: Some(LogicalType::String),
        converted_type: Some(ConvertedType::Utf8),
        ..leaf(name, Type::ByteArray, rep)
    }
}

/// One value of `ty` as its PLAIN bytes (booleans: one byte 0/1).
pub fn gen_value(rng: &mut Rng, ty: Type) -> Vec<u8> {
    let pick = rng.below(40) as i64 - 20; // a small pool, so dictionaries help
    let wide = rng.below(4) == 0;
    match ty {
        Type::Boolean => vec![(rng.below(2)) as u8],
        Type::Int32 => {
            let v = if wide { rng.next() as i32 } else { pick as i32 };
            v.to_le_bytes().to_vec()
        }
        Type::Int64 => {
            let v = if wide {
                rng.next() as i64
            } else {
                pick * 1_000_000_007
            };
            v.to_le_bytes().to_vec()
        }
        Type::Int96 => {
            let mut b = Vec::new();
            for _ in 0..3 {
                b.extend_from_slice(
                    &(rng.below(if wide { u64::MAX } else { 5 }) as u32).to_le_bytes(),
                );
            }
            b
        }
        Type::Float => {
            let v = match rng.below(50) {
                0 => f32::NAN,
                1 => -0.0,
                _ if wide => f32::from_bits(rng.next() as u32 & 0x7F7F_FFFF),
                _ => pick as f32 * 0.5,
            };
            v.to_le_bytes().to_vec()
        }
        Type::Double => {
            let v = match rng.below(50) {
                0 => f64::NAN,
                1 => -0.0,
                _ if wide => rng.next() as f64 / 3.0,
                _ => pick as f64 * 0.25,
            };
            v.to_le_bytes().to_vec()
        }
        Type::ByteArray => {
            let len = if wide {
                rng.below(30)
            } else {
                pick.unsigned_abs() % 6
            };
            (0..len)
                .map(|i| {
                    b'a' + ((pick.unsigned_abs() + i * 7 + if wide { rng.below(26) } else { 0 })
                        % 26) as u8
                })
                .collect()
        }
        Type::FixedLenByteArray => (0..FLBA_WIDTH)
            .map(|i| {
                if wide {
                    rng.next() as u8
                } else {
                    (pick as u8).wrapping_add(i as u8)
                }
            })
            .collect(),
    }
}

/// Levels and values of `rows` rows for a nesting and null pattern.
pub struct ColumnData {
    pub def: Vec<i16>,
    pub rep: Vec<i16>,
    pub values: Vec<Vec<u8>>,
    pub rows: usize,
}

pub fn gen_column(
    rng: &mut Rng,
    ty: Type,
    nesting: Nesting,
    nulls: Nulls,
    rows: usize,
) -> ColumnData {
    let mut d = ColumnData {
        def: Vec::new(),
        rep: Vec::new(),
        values: Vec::new(),
        rows,
    };
    for _ in 0..rows {
        match nesting {
            Nesting::Required => d.values.push(gen_value(rng, ty)),
            Nesting::Optional => {
                let null = match nulls {
                    Nulls::None => false,
                    Nulls::Some => rng.below(10) < 3,
                    Nulls::All => true,
                };
                d.def.push(if null { 0 } else { 1 });
                if !null {
                    d.values.push(gen_value(rng, ty));
                }
            }
            Nesting::Repeated => {
                let len = match nulls {
                    Nulls::None => 1 + rng.below(4),
                    _ => rng.below(5),
                };
                if len == 0 {
                    d.def.push(0);
                    d.rep.push(0);
                }
                for i in 0..len {
                    d.rep.push(if i == 0 { 0 } else { 1 });
                    let null = match nulls {
                        Nulls::None => false,
                        Nulls::Some => rng.below(10) < 3,
                        Nulls::All => true,
                    };
                    d.def.push(if null { 1 } else { 2 });
                    if !null {
                        d.values.push(gen_value(rng, ty));
                    }
                }
            }
        }
    }
    d
}

fn int96(b: &[u8]) -> Int96 {
    let w = |i: usize| u32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap());
    Int96([w(0), w(1), w(2)])
}

/// Write values (PLAIN bytes) through whichever typed writer `w` is.
pub fn write_values(
    w: &mut ColumnWriter,
    vals: &[Vec<u8>],
    def: Option<&[i16]>,
    rep: Option<&[i16]>,
) {
    let n = match w {
        ColumnWriter::BoolColumnWriter(w) => {
            let v: Vec<bool> = vals.iter().map(|b| b[0] != 0).collect();
            w.write_batch(&v, def, rep)
        }
        ColumnWriter::Int32ColumnWriter(w) => {
            let v: Vec<i32> = vals
                .iter()
                .map(|b| i32::from_le_bytes(b[..].try_into().unwrap()))
                .collect();
            w.write_batch(&v, def, rep)
        }
        ColumnWriter::Int64ColumnWriter(w) => {
            let v: Vec<i64> = vals
                .iter()
                .map(|b| i64::from_le_bytes(b[..].try_into().unwrap()))
                .collect();
            w.write_batch(&v, def, rep)
        }
        ColumnWriter::Int96ColumnWriter(w) => {
            let v: Vec<Int96> = vals.iter().map(|b| int96(b)).collect();
            w.write_batch(&v, def, rep)
        }
        ColumnWriter::FloatColumnWriter(w) => {
            let v: Vec<f32> = vals
                .iter()
                .map(|b| f32::from_le_bytes(b[..].try_into().unwrap()))
                .collect();
            w.write_batch(&v, def, rep)
        }
        ColumnWriter::DoubleColumnWriter(w) => {
            let v: Vec<f64> = vals
                .iter()
                .map(|b| f64::from_le_bytes(b[..].try_into().unwrap()))
                .collect();
            w.write_batch(&v, def, rep)
        }
        ColumnWriter::ByteArrayColumnWriter(w) => {
            let slices: Vec<&[u8]> = vals.iter().map(|v| &v[..]).collect();
            w.write_values(ByteArrayBatch::from_slices(&slices), def, rep)
        }
        ColumnWriter::FixedLenByteArrayColumnWriter(w) => {
            let flat: Vec<u8> = vals.concat();
            let width = w.descriptor().type_length.unwrap() as usize;
            w.write_values(FixedLenBatch::new(width, &flat).unwrap(), def, rep)
        }
    }
    .unwrap();
    assert_eq!(n, vals.len());
}

/// Write `data` for column 0 in row groups of `rows_per_group` rows, in
/// calls of `batch` levels each.
pub fn write_file(
    schema: Arc<SchemaDescriptor>,
    props: WriterProperties,
    data: &ColumnData,
    rows_per_group: usize,
    batch: usize,
) -> (Vec<u8>, FileMetaData) {
    let mut out = Vec::new();
    let mut fw = FileWriter::new(&mut out, schema, Arc::new(props)).unwrap();
    let has_def = !data.def.is_empty();
    let has_rep = !data.rep.is_empty();
    let num_levels = if has_def {
        data.def.len()
    } else {
        data.values.len()
    };
    let mut level = 0;
    let mut value = 0;
    let mut row = 0;
    while level < num_levels {
        // Levels of the next `rows_per_group` rows.
        let mut end = level;
        let mut rows = 0;
        while end < num_levels {
            if !has_rep || data.rep[end] == 0 {
                if rows == rows_per_group {
                    break;
                }
                rows += 1;
            }
            end += 1;
        }
        row += rows;
        let mut rg = fw.next_row_group().unwrap();
        let mut cw = rg.next_column().unwrap().unwrap();
        let mut l = level;
        while l < end {
            let e = (l + batch).min(end);
            let def = has_def.then(|| &data.def[l..e]);
            let rep = has_rep.then(|| &data.rep[l..e]);
            let n = match def {
                Some(d) => d.iter().filter(|&&x| x == max_def(data)).count(),
                None => e - l,
            };
            write_values(&mut cw, &data.values[value..value + n], def, rep);
            value += n;
            l = e;
        }
        let chunk = cw.close().unwrap();
        assert_eq!(chunk.num_rows(), rows as u64);
        rg.append_column(chunk).unwrap();
        assert!(rg.next_column().unwrap().is_none());
        rg.close().unwrap();
        level = end;
    }
    assert_eq!(row, data.rows);
    let meta = fw.close().unwrap();
    (out, meta)
}

fn max_def(data: &ColumnData) -> i16 {
    if data.rep.is_empty() { 1 } else { 2 }
}

/// Everything arrow-rs reads back from column `col` of every row group.
#[derive(Debug, Default, PartialEq)]
pub struct ReadBack {
    pub def: Vec<i16>,
    pub rep: Vec<i16>,
    pub values: Vec<Vec<u8>>,
    pub records: usize,
}

macro_rules! read_typed {
    ($r:expr, $out:expr, $conv:expr) => {{
        let mut r = $r;
        loop {
            let mut vals = Vec::new();
            let (recs, _, _) = r
                .read_records(4096, Some(&mut $out.def), Some(&mut $out.rep), &mut vals)
                .unwrap();
            $out.values.extend(vals.iter().map($conv));
            $out.records += recs;
            if recs == 0 {
                break;
            }
        }
    }};
}

pub fn read_back(file: &[u8], col: usize) -> ReadBack {
    let reader = SerializedFileReader::new(Bytes::copy_from_slice(file)).unwrap();
    let mut out = ReadBack::default();
    for i in 0..reader.num_row_groups() {
        let rg = reader.get_row_group(i).unwrap();
        read_row_group(&*rg, col, &mut out);
    }
    out
}

pub fn read_row_group(rg: &dyn RowGroupReader, col: usize, out: &mut ReadBack) {
    match rg.get_column_reader(col).unwrap() {
        ColumnReader::BoolColumnReader(r) => read_typed!(r, out, |v: &bool| vec![u8::from(*v)]),
        ColumnReader::Int32ColumnReader(r) => {
            read_typed!(r, out, |v: &i32| v.to_le_bytes().to_vec())
        }
        ColumnReader::Int64ColumnReader(r) => {
            read_typed!(r, out, |v: &i64| v.to_le_bytes().to_vec())
        }
        ColumnReader::Int96ColumnReader(r) => {
            read_typed!(r, out, |v: &parquet::data_type::Int96| v
                .data()
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect())
        }
        ColumnReader::FloatColumnReader(r) => {
            read_typed!(r, out, |v: &f32| v.to_le_bytes().to_vec())
        }
        ColumnReader::DoubleColumnReader(r) => {
            read_typed!(r, out, |v: &f64| v.to_le_bytes().to_vec())
        }
        ColumnReader::ByteArrayColumnReader(r) => {
            read_typed!(r, out, |v: &parquet::data_type::ByteArray| v
                .data()
                .to_vec())
        }
        ColumnReader::FixedLenByteArrayColumnReader(r) => {
            read_typed!(r, out, |v: &parquet::data_type::FixedLenByteArray| v
                .data()
                .to_vec())
        }
    }
}
