//! # strata-record: records of a column chunk, in batches
//!
//! The record layer sits on [`strata_file`]'s page reader and
//! [`strata_encoding`]'s decoders, and hands out the levels, validity and
//! values of one leaf column a batch of records at a time. It knows
//! nothing about Arrow; the Arrow bridge builds arrays from its buffers.
//!
//! ## Data flow
//!
//! ```text
//! PageReader ─▶ page (decompressed)
//!   dictionary page ─▶ ChunkDecoder::set_dictionary (once per chunk, an Arc)
//!   data page v1/v2 ─▶ rep + def levels (whole page, i16)
//!                      values section ─▶ ChunkDecoder::set_page
//!                        (strata-encoding's value seam: PLAIN read in
//!                        place, dictionary indices gathered or handed
//!                        out, other encodings decoded once per page)
//! read_records ─▶ count records on rep levels (a record starts at rep 0;
//!                 a record is completed from the next page, never split)
//!              ─▶ def levels ─▶ validity bitmap + null count (one pass,
//!                 `def_levels_to_validity`, flat optional columns)
//!              ─▶ values (ChunkDecoder::read): null count 0 ─▶ dense
//!                         otherwise ─▶ spread over the validity bitmap
//! ```
//!
//! - [`ColumnRecordReader::read_records`] fills a [`RecordBatchBuffers`]
//!   (levels, validity, values; reused across batches, `clear` keeps the
//!   allocations).
//! - [`ColumnRecordReader::read_records_dictionary`] hands out dictionary
//!   indices with the chunk's dictionary `Arc` (shared by every batch, never
//!   copied) and reports a fallback page with [`DictionaryRead::Fallback`].
//! - [`ColumnRecordReader::skip_records`] skips records, without decoding
//!   values where the encoding allows and skipping whole pages when their
//!   record count is known.
//! - [`row`]: rows, assembled from the record readers of a row group's
//!   leaf columns, with arrow-rs's row API ([`row::FileReader`],
//!   [`row::RowIter`], [`row::Row`], [`row::Field`]).
//!
//! Flat optional columns get one value slot per record (nulls are zero /
//! empty slots); repeated columns get only their present values, densely,
//! and the levels say where they belong.
//!
//! ## Types
//!
//! `ColumnRecordReader<T>` reads a column of the physical type of its
//! [`ChunkValue`](strata_encoding::chunk::ChunkValue) `T`:
//!
//! | Physical type | `T` | `Values` (one batch) | dictionary |
//! |---|---|---|---|
//! | BOOLEAN | `bool` | `Vec<bool>` | none |
//! | INT32, INT64 | `i32`, `i64` | `Vec<i32>`, `Vec<i64>` | [`PlainDict<T>`](strata_encoding::chunk::PlainDict) |
//! | INT96 | [`Int96`](strata_encoding::Int96) | `Vec<Int96>` | `PlainDict<Int96>` |
//! | FLOAT, DOUBLE | `f32`, `f64` | `Vec<f32>`, `Vec<f64>` | `PlainDict<T>` |
//! | BYTE_ARRAY | [`ByteArray`](strata_encoding::ByteArray) | [`ByteArrayBuffer`](strata_encoding::ByteArrayBuffer) | `ByteArrayBuffer` |
//! | FIXED_LEN_BYTE_ARRAY | [`FixedLenByteArray`](strata_encoding::FixedLenByteArray) | [`FixedLenByteArrayBuffer`](strata_encoding::FixedLenByteArrayBuffer) | `FixedLenByteArrayBuffer` |
//!
//! A FIXED_LEN_BYTE_ARRAY column's width is its descriptor's
//! `type_length`, checked once by [`ColumnRecordReader::new`] (missing or
//! not positive is a [`RecordError::InvalidArgument`]); every batch's
//! buffer is given that width (a default buffer has none), and a null slot
//! of a flat optional column is `width` zero bytes. Its PLAIN pages are
//! read in place like the fixed-width numbers; DELTA_BYTE_ARRAY and
//! BYTE_STREAM_SPLIT pages are decoded once per page.
//!
//! ## Example
//!
//! ```
//! use std::sync::Arc;
//! use bytes::Bytes;
//! use strata_encoding::{Encoder, LevelEncoder, PlainEncoder};
//! use strata_file::page_reader::PageReader;
//! use strata_format::metadata::{
//!     CompressionCodec, DataPageHeader, Encoding, FieldRepetitionType, PageHeader, PageType, Type,
//! };
//! use strata_format::{thrift, ColumnDescriptor, ColumnPath};
//! use strata_record::{ColumnRecordReader, RecordBatchBuffers};
//! use strata_sink::ByteSink;
//!
//! // One v1 page of an optional INT32 column: 7, null, 9.
//! let mut body = ByteSink::new();
//! let mut levels = LevelEncoder::new(1).unwrap();
//! levels.put(&[1, 0, 1]).unwrap();
//! levels.flush_v1(&mut body).unwrap();
//! let mut values = PlainEncoder::<i32>::new();
//! values.put(&[7, 9]).unwrap();
//! values.flush_into(&mut body).unwrap();
//! let header = PageHeader {
//!     page_type: PageType::DataPage,
//!     uncompressed_page_size: body.len() as i32,
//!     compressed_page_size: body.len() as i32,
//!     crc: None,
//!     data_page_header: Some(DataPageHeader {
//!         num_values: 3,
//!         encoding: Encoding::Plain,
//!         definition_level_encoding: Encoding::Rle,
//!         repetition_level_encoding: Encoding::Rle,
//!         statistics: None,
//!     }),
//!     index_page_header: None,
//!     dictionary_page_header: None,
//!     data_page_header_v2: None,
//! };
//! let mut chunk = ByteSink::new();
//! thrift::encode(&header, &mut chunk);
//! chunk.extend_from_slice(body.as_slice());
//! let chunk = Bytes::from(chunk.as_slice().to_vec());
//!
//! let leaf = strata_format::schema::Type::primitive_type_builder("x", Type::INT32)
//!     .with_repetition(FieldRepetitionType::OPTIONAL)
//!     .build()
//!     .unwrap();
//! let descr = ColumnDescriptor::new(Arc::new(leaf), 1, 0, ColumnPath::from("x"));
//! let pages = PageReader::new(chunk, CompressionCodec::Uncompressed, 3).unwrap();
//! let mut reader = ColumnRecordReader::<i32>::new(pages, descr.clone()).unwrap();
//! let mut batch = RecordBatchBuffers::new();
//! assert_eq!(reader.read_records(10, &mut batch).unwrap(), 3);
//! assert_eq!(batch.def_levels, [1, 0, 1]);
//! assert_eq!(batch.values, [7, 0, 9]); // the null slot holds 0
//! assert_eq!((batch.validity[0] & 0b111, batch.null_count), (0b101, 1));
//! assert_eq!(reader.read_records(10, &mut batch).unwrap(), 0);
//!
//! // The same page layout for an optional FIXED_LEN_BYTE_ARRAY(2) column:
//! // "ab", null, "cd".
//! use strata_encoding::{FixedLenBatch, FixedLenByteArray, PlainFixedLenByteArrayEncoder};
//! let mut body = ByteSink::new();
//! let mut levels = LevelEncoder::new(1).unwrap();
//! levels.put(&[1, 0, 1]).unwrap();
//! levels.flush_v1(&mut body).unwrap();
//! let mut values = PlainFixedLenByteArrayEncoder::new(2).unwrap();
//! values.put(FixedLenBatch::new(2, b"abcd").unwrap()).unwrap();
//! values.flush_into(&mut body).unwrap();
//! let header = PageHeader {
//!     uncompressed_page_size: body.len() as i32,
//!     compressed_page_size: body.len() as i32,
//!     ..header
//! };
//! let mut chunk = ByteSink::new();
//! thrift::encode(&header, &mut chunk);
//! chunk.extend_from_slice(body.as_slice());
//! let chunk = Bytes::from(chunk.as_slice().to_vec());
//!
//! let leaf = strata_format::schema::Type::primitive_type_builder("x", Type::FIXED_LEN_BYTE_ARRAY)
//!     .with_repetition(FieldRepetitionType::OPTIONAL)
//!     .with_length(2)
//!     .build()
//!     .unwrap();
//! let descr = ColumnDescriptor::new(Arc::new(leaf), 1, 0, ColumnPath::from("x"));
//! let pages = PageReader::new(chunk, CompressionCodec::Uncompressed, 3).unwrap();
//! let mut reader = ColumnRecordReader::<FixedLenByteArray>::new(pages, descr).unwrap();
//! let mut batch = RecordBatchBuffers::new();
//! assert_eq!(reader.read_records(10, &mut batch).unwrap(), 3);
//! assert_eq!(batch.values.width(), 2);
//! assert_eq!(batch.values.values(), b"ab\0\0cd"); // the null slot is zeros
//! assert_eq!(batch.null_count, 1);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod buffers;
pub mod column_reader;
mod error;
mod reader;
pub mod row;

pub use buffers::RecordBatchBuffers;
pub use error::{RecordError, Result};
pub use reader::{ColumnRecordReader, DictionaryRead, MAX_PAGE_LEVELS, ReadStats, RecordRun};
