//! Helpers shared by the read tests: locating the parquet-testing corpus,
//! and reading every page of a column chunk down to decoded levels and
//! values (through strata-encoding), counting what was decoded.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use strata_encoding::{
    ByteArray, ByteArrayBuffer, ByteStreamSplitDecoder, ByteStreamSplitFixedLenDecoder, Decoder,
    DeltaBinaryPackedDecoder, DeltaByteArrayDecoder, DeltaByteArrayFixedLenDecoder,
    DeltaLengthByteArrayDecoder, DictDecoder, FixedLenByteArray, FixedLenByteArrayBuffer, Int96,
    LevelDecoder, PlainBooleanDecoder, PlainByteArrayDecoder, PlainDecoder,
    PlainFixedLenByteArrayDecoder, RleBooleanDecoder, ValueType,
};
use strata_file::chunk_reader::ChunkReader;
use strata_file::page::Page;
use strata_file::serialized_reader::SerializedRowGroupReader;
use strata_format::ColumnDescriptor;
use strata_format::metadata::{Encoding, Type};

/// The corpus root (`../shared/parquet-testing` beside the checkout), or
/// `None` with a "skipped" message.
pub fn corpus_root(test: &str) -> Option<PathBuf> {
    let root = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/parquet-testing"
    ));
    if root.join("data").is_dir() {
        Some(root.to_path_buf())
    } else {
        eprintln!(
            "skipped {test}: parquet-testing corpus not found at {}",
            root.display()
        );
        None
    }
}

/// Every `*.parquet` file under `dir`, recursively, sorted.
pub fn parquet_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "parquet") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Decoded values of one column chunk, kept only when asked for.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Values {
    /// Not collected.
    #[default]
    None,
    Bool(Vec<bool>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    Int96(Vec<Int96>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    Bytes(Vec<Vec<u8>>),
}

/// What reading one column chunk found.
#[derive(Debug, Default)]
pub struct ColumnSummary {
    /// Level entries (values including nulls) over all data pages.
    pub num_values: u64,
    /// Values the definition levels say are present.
    pub num_present: u64,
    /// Values decoded from the values sections.
    pub num_decoded: u64,
    /// Data pages read.
    pub data_pages: usize,
    /// Whether a dictionary page was read.
    pub has_dictionary: bool,
    /// Definition levels, when collecting.
    pub def_levels: Vec<i16>,
    /// Repetition levels, when collecting.
    pub rep_levels: Vec<i16>,
    /// Decoded values, when collecting.
    pub values: Values,
}

const BATCH: usize = 1024;

/// Read every page of column `j`: decode levels and values; with
/// `collect`, keep them.
pub fn read_column<R: ChunkReader>(
    row_group: &SerializedRowGroupReader<'_, R>,
    j: usize,
    collect: bool,
) -> Result<ColumnSummary, String> {
    let descr = row_group.column_descriptor(j).map_err(|e| e.to_string())?;
    let pages = row_group.page_reader(j).map_err(|e| e.to_string())?;
    let mut summary = ColumnSummary::default();
    if collect {
        summary.values = empty_values(descr.physical_type);
    }
    let mut dictionary: Option<(bytes::Bytes, usize)> = None;
    let mut levels = vec![0i16; BATCH];
    for page in pages {
        let page = page.map_err(|e| e.to_string())?;
        let (values, num_values, encoding, present) = match &page {
            Page::DictionaryPage {
                buf, num_values, ..
            } => {
                dictionary = Some((buf.clone(), *num_values as usize));
                summary.has_dictionary = true;
                continue;
            }
            Page::DataPage {
                buf,
                num_values,
                encoding,
                def_level_encoding,
                rep_level_encoding,
                ..
            } => {
                let n = *num_values as usize;
                let mut pos = 0;
                if descr.max_rep_level > 0 {
                    let rest = buf.get(pos..).unwrap_or_default();
                    let (used, _) = read_levels_v1(
                        rest,
                        n,
                        descr.max_rep_level,
                        *rep_level_encoding,
                        &mut levels,
                        collect.then_some(&mut summary.rep_levels),
                    )?;
                    pos += used;
                }
                let mut present = n;
                if descr.max_def_level > 0 {
                    let rest = buf.get(pos..).unwrap_or_default();
                    let (used, p) = read_levels_v1(
                        rest,
                        n,
                        descr.max_def_level,
                        *def_level_encoding,
                        &mut levels,
                        collect.then_some(&mut summary.def_levels),
                    )?;
                    pos += used;
                    present = p;
                }
                (buf.slice(pos.min(buf.len())..), n, *encoding, present)
            }
            Page::DataPageV2 {
                buf,
                num_values,
                num_nulls,
                encoding,
                def_levels_byte_len,
                rep_levels_byte_len,
                ..
            } => {
                let n = *num_values as usize;
                let rep_len = *rep_levels_byte_len as usize;
                let def_end = rep_len + *def_levels_byte_len as usize;
                let rep = buf.get(..rep_len).ok_or("rep levels out of page")?;
                let def = buf.get(rep_len..def_end).ok_or("def levels out of page")?;
                if descr.max_rep_level > 0 {
                    read_levels_v2(
                        rep,
                        n,
                        descr.max_rep_level,
                        &mut levels,
                        collect.then_some(&mut summary.rep_levels),
                    )?;
                }
                let mut present = n;
                if descr.max_def_level > 0 {
                    present = read_levels_v2(
                        def,
                        n,
                        descr.max_def_level,
                        &mut levels,
                        collect.then_some(&mut summary.def_levels),
                    )?;
                }
                if (*num_nulls as usize) != n - present {
                    return Err(format!(
                        "v2 page header says {num_nulls} nulls, levels say {}",
                        n - present
                    ));
                }
                (buf.slice(def_end..), n, *encoding, present)
            }
        };
        summary.data_pages += 1;
        summary.num_values += num_values as u64;
        summary.num_present += present as u64;
        let decoded = decode_values(
            descr,
            encoding,
            &values,
            present,
            dictionary.as_ref(),
            &mut summary.values,
        )?;
        if decoded != present {
            return Err(format!(
                "page decoded {decoded} values, levels say {present} are present"
            ));
        }
        summary.num_decoded += decoded as u64;
    }
    Ok(summary)
}

fn empty_values(ty: Type) -> Values {
    match ty {
        Type::Boolean => Values::Bool(Vec::new()),
        Type::Int32 => Values::I32(Vec::new()),
        Type::Int64 => Values::I64(Vec::new()),
        Type::Int96 => Values::Int96(Vec::new()),
        Type::Float => Values::F32(Vec::new()),
        Type::Double => Values::F64(Vec::new()),
        _ => Values::Bytes(Vec::new()),
    }
}

/// Decode `n` levels in batches, returning how many equal `max`.
fn drain_levels(
    decoder: &mut LevelDecoder<'_>,
    n: usize,
    max: i16,
    buf: &mut [i16],
    mut keep: Option<&mut Vec<i16>>,
) -> Result<usize, String> {
    let mut left = n;
    let mut at_max = 0;
    while left > 0 {
        let want = left.min(buf.len());
        let got = decoder
            .decode(&mut buf[..want])
            .map_err(|e| e.to_string())?;
        if got == 0 {
            return Err(format!("levels ended {left} short"));
        }
        at_max += buf[..got].iter().filter(|l| **l == max).count();
        if let Some(keep) = keep.as_deref_mut() {
            keep.extend_from_slice(&buf[..got]);
        }
        left -= got;
    }
    Ok(at_max)
}

fn read_levels_v1(
    data: &[u8],
    n: usize,
    max: i16,
    encoding: Encoding,
    buf: &mut [i16],
    keep: Option<&mut Vec<i16>>,
) -> Result<(usize, usize), String> {
    let mut decoder = LevelDecoder::new(max).map_err(|e| e.to_string())?;
    let used = match encoding {
        Encoding::Rle => decoder.set_rle_v1(data, n),
        Encoding::BitPacked => decoder.set_bit_packed(data, n),
        other => return Err(format!("level encoding {other:?}")),
    }
    .map_err(|e| e.to_string())?;
    let at_max = drain_levels(&mut decoder, n, max, buf, keep)?;
    Ok((used, at_max))
}

fn read_levels_v2(
    data: &[u8],
    n: usize,
    max: i16,
    buf: &mut [i16],
    keep: Option<&mut Vec<i16>>,
) -> Result<usize, String> {
    let mut decoder = LevelDecoder::new(max).map_err(|e| e.to_string())?;
    decoder.set_rle_v2(data, n).map_err(|e| e.to_string())?;
    drain_levels(&mut decoder, n, max, buf, keep)
}

/// Decode every value of a slice-output decoder.
fn drain_slice<'a, T, D>(
    decoder: &mut D,
    page: &'a [u8],
    n: usize,
    keep: Option<&mut Vec<T>>,
) -> Result<usize, String>
where
    T: ValueType<Out = [T]> + Copy + Default,
    D: Decoder<'a, T>,
{
    decoder.set_data(page, n).map_err(|e| e.to_string())?;
    let mut buf = [T::default(); BATCH];
    let mut total = 0;
    let mut keep = keep;
    while total < n {
        let want = (n - total).min(BATCH);
        let got = decoder
            .decode(&mut buf[..want], want)
            .map_err(|e| e.to_string())?;
        if got == 0 {
            break;
        }
        if let Some(keep) = keep.as_deref_mut() {
            keep.extend_from_slice(&buf[..got]);
        }
        total += got;
    }
    Ok(total)
}

/// Decode every value of a byte-array decoder.
fn drain_bytes<'a, D>(
    decoder: &mut D,
    page: &'a [u8],
    n: usize,
    keep: Option<&mut Vec<Vec<u8>>>,
) -> Result<usize, String>
where
    D: Decoder<'a, ByteArray<i32>>,
{
    decoder.set_data(page, n).map_err(|e| e.to_string())?;
    let mut out = ByteArrayBuffer::<i32>::new();
    let mut total = 0;
    let mut keep = keep;
    while total < n {
        out.clear();
        let want = (n - total).min(BATCH);
        let got = decoder.decode(&mut out, want).map_err(|e| e.to_string())?;
        if got == 0 {
            break;
        }
        if let Some(keep) = keep.as_deref_mut() {
            keep.extend(out.iter().map(<[u8]>::to_vec));
        }
        total += got;
    }
    Ok(total)
}

/// Decode every value of a fixed-length byte-array decoder.
fn drain_fixed_len<'a, D>(
    decoder: &mut D,
    page: &'a [u8],
    n: usize,
    width: usize,
    keep: Option<&mut Vec<Vec<u8>>>,
) -> Result<usize, String>
where
    D: Decoder<'a, FixedLenByteArray>,
{
    decoder.set_data(page, n).map_err(|e| e.to_string())?;
    let mut out = FixedLenByteArrayBuffer::new(width);
    let mut total = 0;
    let mut keep = keep;
    while total < n {
        out.clear();
        let want = (n - total).min(BATCH);
        let got = decoder.decode(&mut out, want).map_err(|e| e.to_string())?;
        if got == 0 {
            break;
        }
        if let Some(keep) = keep.as_deref_mut() {
            keep.extend((0..out.len()).filter_map(|i| out.value(i).map(<[u8]>::to_vec)));
        }
        total += got;
    }
    Ok(total)
}

macro_rules! keep {
    ($values:expr, $variant:ident) => {
        match $values {
            Values::$variant(v) => Some(v),
            _ => None,
        }
    };
}

/// Decode the `n` present values of one page's values section.
fn decode_values(
    descr: &ColumnDescriptor,
    encoding: Encoding,
    page: &[u8],
    n: usize,
    dictionary: Option<&(bytes::Bytes, usize)>,
    values: &mut Values,
) -> Result<usize, String> {
    let is_dict = matches!(
        encoding,
        Encoding::PlainDictionary | Encoding::RleDictionary
    );
    let dict = || {
        dictionary.ok_or_else(|| "dictionary-encoded page without a dictionary page".to_string())
    };
    let width = || -> Result<usize, String> {
        descr
            .type_length
            .and_then(|w| usize::try_from(w).ok())
            .ok_or_else(|| "FIXED_LEN_BYTE_ARRAY without a type length".to_string())
    };
    let unsupported = || format!("{encoding:?} for {:?}", descr.physical_type);
    macro_rules! dict_slice {
        ($t:ty, $variant:ident) => {{
            let (buf, count) = dict()?;
            let mut d = DictDecoder::<$t>::new();
            d.set_dict(buf, *count).map_err(|e| e.to_string())?;
            drain_slice(&mut d, page, n, keep!(values, $variant))
        }};
    }
    match descr.physical_type {
        Type::Boolean => match encoding {
            Encoding::Plain => drain_slice(
                &mut PlainBooleanDecoder::new(),
                page,
                n,
                keep!(values, Bool),
            ),
            Encoding::Rle => {
                drain_slice(&mut RleBooleanDecoder::new(), page, n, keep!(values, Bool))
            }
            _ => Err(unsupported()),
        },
        Type::Int32 => match encoding {
            Encoding::Plain => drain_slice(
                &mut PlainDecoder::<i32>::default(),
                page,
                n,
                keep!(values, I32),
            ),
            Encoding::DeltaBinaryPacked => drain_slice(
                &mut DeltaBinaryPackedDecoder::<i32>::default(),
                page,
                n,
                keep!(values, I32),
            ),
            Encoding::ByteStreamSplit => drain_slice(
                &mut ByteStreamSplitDecoder::<i32>::new(),
                page,
                n,
                keep!(values, I32),
            ),
            _ if is_dict => dict_slice!(i32, I32),
            _ => Err(unsupported()),
        },
        Type::Int64 => match encoding {
            Encoding::Plain => drain_slice(
                &mut PlainDecoder::<i64>::default(),
                page,
                n,
                keep!(values, I64),
            ),
            Encoding::DeltaBinaryPacked => drain_slice(
                &mut DeltaBinaryPackedDecoder::<i64>::default(),
                page,
                n,
                keep!(values, I64),
            ),
            Encoding::ByteStreamSplit => drain_slice(
                &mut ByteStreamSplitDecoder::<i64>::new(),
                page,
                n,
                keep!(values, I64),
            ),
            _ if is_dict => dict_slice!(i64, I64),
            _ => Err(unsupported()),
        },
        Type::Int96 => match encoding {
            Encoding::Plain => drain_slice(
                &mut PlainDecoder::<Int96>::default(),
                page,
                n,
                keep!(values, Int96),
            ),
            _ if is_dict => dict_slice!(Int96, Int96),
            _ => Err(unsupported()),
        },
        Type::Float => match encoding {
            Encoding::Plain => drain_slice(
                &mut PlainDecoder::<f32>::default(),
                page,
                n,
                keep!(values, F32),
            ),
            Encoding::ByteStreamSplit => drain_slice(
                &mut ByteStreamSplitDecoder::<f32>::new(),
                page,
                n,
                keep!(values, F32),
            ),
            _ if is_dict => dict_slice!(f32, F32),
            _ => Err(unsupported()),
        },
        Type::Double => match encoding {
            Encoding::Plain => drain_slice(
                &mut PlainDecoder::<f64>::default(),
                page,
                n,
                keep!(values, F64),
            ),
            Encoding::ByteStreamSplit => drain_slice(
                &mut ByteStreamSplitDecoder::<f64>::new(),
                page,
                n,
                keep!(values, F64),
            ),
            _ if is_dict => dict_slice!(f64, F64),
            _ => Err(unsupported()),
        },
        Type::ByteArray => match encoding {
            Encoding::Plain => drain_bytes(
                &mut PlainByteArrayDecoder::<i32>::new(),
                page,
                n,
                keep!(values, Bytes),
            ),
            Encoding::DeltaLengthByteArray => drain_bytes(
                &mut DeltaLengthByteArrayDecoder::<i32>::new(),
                page,
                n,
                keep!(values, Bytes),
            ),
            Encoding::DeltaByteArray => drain_bytes(
                &mut DeltaByteArrayDecoder::<i32>::new(),
                page,
                n,
                keep!(values, Bytes),
            ),
            _ if is_dict => {
                let (buf, count) = dict()?;
                let mut d = DictDecoder::<ByteArray<i32>>::new();
                d.set_dict(buf, *count).map_err(|e| e.to_string())?;
                drain_bytes(&mut d, page, n, keep!(values, Bytes))
            }
            _ => Err(unsupported()),
        },
        Type::FixedLenByteArray => {
            let w = width()?;
            let e = |e: strata_encoding::EncodingError| e.to_string();
            match encoding {
                Encoding::Plain => drain_fixed_len(
                    &mut PlainFixedLenByteArrayDecoder::new(w).map_err(e)?,
                    page,
                    n,
                    w,
                    keep!(values, Bytes),
                ),
                Encoding::DeltaByteArray => drain_fixed_len(
                    &mut DeltaByteArrayFixedLenDecoder::new(w).map_err(e)?,
                    page,
                    n,
                    w,
                    keep!(values, Bytes),
                ),
                Encoding::ByteStreamSplit => drain_fixed_len(
                    &mut ByteStreamSplitFixedLenDecoder::new(w).map_err(e)?,
                    page,
                    n,
                    w,
                    keep!(values, Bytes),
                ),
                _ if is_dict => {
                    let (buf, count) = dict()?;
                    let mut d = DictDecoder::<FixedLenByteArray>::new(w).map_err(e)?;
                    d.set_dict(buf, *count).map_err(|e| e.to_string())?;
                    drain_fixed_len(&mut d, page, n, w, keep!(values, Bytes))
                }
                _ => Err(unsupported()),
            }
        }
    }
}
