//! The boundary between strata's Arrow (60) and DataFusion 55's (59).
//!
//! Two majors of the same crates are two sets of Rust types, even where
//! their memory is laid out alike. Batches cross through the Arrow C Data
//! Interface, the ABI both majors implement: an array is exported as a
//! C `ArrowArray` whose buffers point at the exporter's memory, and
//! imported as an array whose buffers are that same memory, kept alive by
//! the exporter's release callback. No value is copied; what a batch costs
//! at the boundary is a few small allocations per column (the exported
//! structs and the imported buffer handles), whatever its length.
//!
//! Schemas cross the same way (`ArrowSchema`), once per scan or write, and
//! keep their field and schema metadata. Arrays then cross with the data
//! type already converted, so no schema is exported per batch.
//!
//! When DataFusion moves to strata's major, these functions become
//! identities; nothing above them depends on how a batch crosses.
//!
//! The `unsafe` here is the C Data Interface's own: moving an exported
//! struct from one crate's Rust type to the other's (the two are
//! `#[repr(C)]` declarations of one C struct, checked equal in size and
//! alignment at compile time) and importing it (which trusts that the
//! exporter produced a valid array; here the exporter is arrow-rs itself,
//! from a valid array).

#![allow(unsafe_code)]

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, RecordBatch, RecordBatchOptions};
use arrow_schema::{ArrowError, DataType, Schema, SchemaRef};
use arrow59::array::{Array as DfArray, ArrayRef as DfArrayRef, RecordBatch as DfRecordBatch};
use arrow59::datatypes::{DataType as DfDataType, Schema as DfSchema, SchemaRef as DfSchemaRef};
use arrow59::error::ArrowError as DfArrowError;

use arrow_data::ffi::FFI_ArrowArray;
use arrow_schema::ffi::FFI_ArrowSchema;
use arrow59::ffi::{FFI_ArrowArray as DfFfiArray, FFI_ArrowSchema as DfFfiSchema};

// The two majors' structs are the same C structs: the moves below rely on it.
const _: () = {
    assert!(size_of::<FFI_ArrowArray>() == size_of::<DfFfiArray>());
    assert!(align_of::<FFI_ArrowArray>() == align_of::<DfFfiArray>());
    assert!(size_of::<FFI_ArrowSchema>() == size_of::<DfFfiSchema>());
    assert!(align_of::<FFI_ArrowSchema>() == align_of::<DfFfiSchema>());
};

/// An error at the boundary, in DataFusion's Arrow error type.
fn df_error(e: ArrowError) -> DfArrowError {
    DfArrowError::ExternalError(Box::new(e))
}

/// An error at the boundary, in strata's Arrow error type.
fn strata_error(e: DfArrowError) -> ArrowError {
    ArrowError::ExternalError(Box::new(e))
}

/// Move an exported schema into DataFusion's type.
fn schema_struct_to_df(mut schema: FFI_ArrowSchema) -> DfFfiSchema {
    // SAFETY: `schema` is an initialized, aligned `ArrowSchema` (the two
    // Rust types share its C layout, asserted above). `from_raw` moves it
    // out and leaves a released, empty struct behind, whose drop does
    // nothing: the release callback runs once, from the new owner.
    unsafe { DfFfiSchema::from_raw((&raw mut schema).cast::<DfFfiSchema>()) }
}

/// Move an exported schema into strata's type.
fn schema_struct_from_df(mut schema: DfFfiSchema) -> FFI_ArrowSchema {
    // SAFETY: as in `schema_struct_to_df`, the other way.
    unsafe { FFI_ArrowSchema::from_raw((&raw mut schema).cast::<FFI_ArrowSchema>()) }
}

/// A strata (Arrow 60) schema as DataFusion's (Arrow 59), with its
/// metadata.
pub fn schema_to_df(schema: &Schema) -> Result<DfSchema, DfArrowError> {
    let exported = FFI_ArrowSchema::try_from(schema).map_err(df_error)?;
    DfSchema::try_from(&schema_struct_to_df(exported))
}

/// A DataFusion (Arrow 59) schema as strata's (Arrow 60), with its
/// metadata.
pub fn schema_from_df(schema: &DfSchema) -> Result<Schema, ArrowError> {
    let exported = DfFfiSchema::try_from(schema).map_err(strata_error)?;
    Schema::try_from(&schema_struct_from_df(exported))
}

/// A strata data type as DataFusion's.
pub fn data_type_to_df(data_type: &DataType) -> Result<DfDataType, DfArrowError> {
    let exported = FFI_ArrowSchema::try_from(data_type).map_err(df_error)?;
    DfDataType::try_from(&schema_struct_to_df(exported))
}

/// A strata array as DataFusion's, of `data_type` (the array's own type,
/// converted by [`data_type_to_df`]), over the same memory.
pub fn array_to_df(array: &dyn Array, data_type: &DfDataType) -> Result<DfArrayRef, DfArrowError> {
    let mut exported = FFI_ArrowArray::new(&array.to_data());
    // SAFETY: `exported` is an initialized, aligned `ArrowArray` (the two
    // Rust types share its C layout, asserted above); `from_raw` moves it
    // out and leaves a released struct behind.
    let moved = unsafe { DfFfiArray::from_raw((&raw mut exported).cast::<DfFfiArray>()) };
    // SAFETY: arrow-rs exported `moved` from a valid array whose type
    // `data_type` is (the caller converted it from the array's own).
    let data = unsafe { arrow59::ffi::from_ffi_and_data_type(moved, data_type.clone())? };
    Ok(arrow59::array::make_array(data))
}

/// A DataFusion array as strata's, of `data_type` (the array's own type,
/// converted), over the same memory.
pub fn array_from_df(array: &dyn DfArray, data_type: &DataType) -> Result<ArrayRef, ArrowError> {
    let mut exported = DfFfiArray::new(&array.to_data());
    // SAFETY: as in `array_to_df`, the other way.
    let moved = unsafe { FFI_ArrowArray::from_raw((&raw mut exported).cast::<FFI_ArrowArray>()) };
    // SAFETY: as in `array_to_df`, the other way.
    let data = unsafe { arrow_array::ffi::from_ffi_and_data_type(moved, data_type.clone())? };
    Ok(arrow_array::make_array(data))
}

/// Why a batch of `columns` columns cannot take a schema of `fields`
/// fields, if it cannot.
fn width_mismatch(columns: usize, fields: usize) -> Option<String> {
    (columns != fields).then(|| format!("a batch of {columns} columns for a schema of {fields}"))
}

/// A strata batch as DataFusion's, with `schema` (the batch's schema,
/// converted by [`schema_to_df`]).
pub fn batch_to_df(
    batch: &RecordBatch,
    schema: &DfSchemaRef,
) -> Result<DfRecordBatch, DfArrowError> {
    if let Some(why) = width_mismatch(batch.num_columns(), schema.fields().len()) {
        return Err(DfArrowError::SchemaError(why));
    }
    let columns = batch
        .columns()
        .iter()
        .zip(schema.fields())
        .map(|(column, field)| array_to_df(column.as_ref(), field.data_type()))
        .collect::<Result<Vec<_>, _>>()?;
    let options = arrow59::array::RecordBatchOptions::new().with_row_count(Some(batch.num_rows()));
    DfRecordBatch::try_new_with_options(Arc::clone(schema), columns, &options)
}

/// A DataFusion batch as strata's, with `schema` (the batch's schema,
/// converted by [`schema_from_df`]).
pub fn batch_from_df(batch: &DfRecordBatch, schema: &SchemaRef) -> Result<RecordBatch, ArrowError> {
    if let Some(why) = width_mismatch(batch.num_columns(), schema.fields().len()) {
        return Err(ArrowError::SchemaError(why));
    }
    let columns = batch
        .columns()
        .iter()
        .zip(schema.fields())
        .map(|(column, field)| array_from_df(column.as_ref(), field.data_type()))
        .collect::<Result<Vec<_>, _>>()?;
    let options = RecordBatchOptions::new().with_row_count(Some(batch.num_rows()));
    RecordBatch::try_new_with_options(Arc::clone(schema), columns, &options)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use arrow_array::builder::{ListBuilder, StringBuilder};
    use arrow_array::types::Int32Type;
    use arrow_array::{
        BinaryViewArray, BooleanArray, Decimal128Array, DictionaryArray, Float64Array, Int64Array,
        LargeStringArray, StringArray, StringViewArray, StructArray, TimestampMicrosecondArray,
    };
    use arrow_schema::Field;

    use super::*;

    /// Arrays of the kinds a scan hands DataFusion.
    fn arrays() -> Vec<ArrayRef> {
        let strings = StringArray::from(vec![
            Some("a"),
            None,
            Some("a longer string, past twelve bytes"),
        ]);
        let mut lists = ListBuilder::new(StringBuilder::new());
        lists.append_value([Some("x"), None]);
        lists.append_null();
        lists.append_value([Some("y")]);
        let structs = StructArray::from(vec![
            (
                Arc::new(Field::new("i", DataType::Int64, true)),
                Arc::new(Int64Array::from(vec![Some(1), None, Some(3)])) as ArrayRef,
            ),
            (
                Arc::new(Field::new("s", DataType::Utf8, true)),
                Arc::new(strings.clone()) as ArrayRef,
            ),
        ]);
        let dictionary: DictionaryArray<Int32Type> =
            vec![Some("p"), Some("q"), None].into_iter().collect();
        vec![
            Arc::new(Int64Array::from(vec![Some(1), None, Some(-3)])),
            Arc::new(Float64Array::from(vec![1.5, f64::NAN, -0.0])),
            Arc::new(BooleanArray::from(vec![Some(true), None, Some(false)])),
            Arc::new(strings),
            Arc::new(LargeStringArray::from(vec!["l", "m", "n"])),
            Arc::new(StringViewArray::from(vec![
                Some("v"),
                None,
                Some("a view longer than twelve"),
            ])),
            Arc::new(BinaryViewArray::from(vec![b"b".as_ref(), b"", b"\xff\x00"])),
            Arc::new(
                Decimal128Array::from(vec![Some(12345), None, Some(-1)])
                    .with_precision_and_scale(12, 2)
                    .unwrap(),
            ),
            Arc::new(TimestampMicrosecondArray::from(vec![1, 2, 3]).with_timezone("UTC")),
            Arc::new(lists.finish()),
            Arc::new(structs),
            Arc::new(dictionary),
        ]
    }

    /// Each array, whole and sliced, crosses to DataFusion's Arrow and back
    /// equal to itself, and DataFusion's copy shares its buffers.
    #[test]
    fn arrays_cross_both_ways_unchanged_and_uncopied() {
        for array in arrays() {
            for array in [array.clone(), array.slice(1, 2)] {
                let df_type = data_type_to_df(array.data_type()).unwrap();
                let theirs = array_to_df(array.as_ref(), &df_type).unwrap();
                assert_eq!(theirs.len(), array.len());
                assert_eq!(theirs.null_count(), array.null_count());
                let ours = array.to_data();
                let data = theirs.to_data();
                for (a, b) in ours.buffers().iter().zip(data.buffers()) {
                    assert_eq!(
                        a.as_ptr(),
                        b.as_ptr(),
                        "{:?}: a buffer was copied",
                        array.data_type()
                    );
                }
                let back = array_from_df(theirs.as_ref(), array.data_type()).unwrap();
                assert_eq!(back.to_data(), array.to_data(), "{:?}", array.data_type());
            }
        }
    }

    /// Batches cross with their schema's metadata and their row count,
    /// also when they have no columns.
    #[test]
    fn batches_and_schemas_cross_with_metadata() {
        let columns = arrays();
        let fields: Vec<Field> = columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                Field::new(format!("c{i}"), c.data_type().clone(), true)
                    .with_metadata(HashMap::from([("k".to_owned(), format!("{i}"))]))
            })
            .collect();
        let schema = Arc::new(Schema::new_with_metadata(
            fields,
            HashMap::from([("origin".to_owned(), "test".to_owned())]),
        ));
        let batch = RecordBatch::try_new(Arc::clone(&schema), columns).unwrap();
        let df_schema = Arc::new(schema_to_df(&schema).unwrap());
        assert_eq!(
            df_schema.metadata().get("origin").map(String::as_str),
            Some("test")
        );
        assert_eq!(
            df_schema.field(3).metadata().get("k").map(String::as_str),
            Some("3")
        );
        let theirs = batch_to_df(&batch, &df_schema).unwrap();
        let back_schema = Arc::new(schema_from_df(&df_schema).unwrap());
        assert_eq!(back_schema, schema);
        assert_eq!(batch_from_df(&theirs, &back_schema).unwrap(), batch);

        let empty = Arc::new(Schema::empty());
        let rows = RecordBatch::try_new_with_options(
            Arc::clone(&empty),
            vec![],
            &RecordBatchOptions::new().with_row_count(Some(7)),
        )
        .unwrap();
        let df_empty = Arc::new(schema_to_df(&empty).unwrap());
        assert_eq!(batch_to_df(&rows, &df_empty).unwrap().num_rows(), 7);
        // A batch whose width is not the schema's is an error.
        assert!(batch_to_df(&batch, &df_empty).is_err());
    }
}
