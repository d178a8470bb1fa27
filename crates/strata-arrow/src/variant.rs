//! `VARIANT` groups as Arrow Variant fields (feature `variant_experimental`,
//! as arrow-rs's).
//!
//! A `VARIANT` column is a group of binary leaves: `metadata` (the
//! dictionary of field names) and `value` (the encoded value), and, when
//! the column is shredded, a `typed_value` whose type the writer chose
//! (a primitive, a list of shredded elements, or a group of shredded
//! fields, at any depth). The reader maps the group as any other struct;
//! this module only names it:
//!
//! - Read: a group annotated `VARIANT` becomes a struct field with the
//!   canonical extension type `arrow.parquet.variant` (extension metadata
//!   the empty string), unless the embedded Arrow schema already names an
//!   extension for it.
//! - Write: a struct field with that extension type is written as a group
//!   annotated `VARIANT` (no specification version, as arrow-rs writes).
//!
//! The Variant values themselves (decoding, shredding, unshredding) are
//! arrow-rs's `parquet-variant` crates' job, which `strata::variant`
//! re-exports under the same feature. Without the feature a `VARIANT`
//! group reads as a plain struct and a struct is never written as one, as
//! with arrow-rs's default features.
//!
//! ## Untrusted values
//!
//! The reader hands over a Variant column's bytes as they are stored; it
//! does not look into them. Two paths of the Variant crates take such
//! bytes on trust: `VariantArray::value` panics on an invalid value (by
//! its documentation), and `unshred_variant` panics when a shredded
//! field's name is missing from its row's metadata dictionary (it then
//! builds the object with a name the row cannot hold), and returns an
//! unshredded input without looking at it. `unshred_variant` here has
//! the same signature and answers an error instead: it checks every
//! present shredded field's name against its row's dictionary first, and
//! validates every value of the result, so that `value(i)` on what it
//! returns cannot panic. `strata::variant::unshred_variant` is this one.

use std::collections::HashMap;

use arrow_schema::Field;
use strata_format::metadata::LogicalType;

/// The canonical extension type name of Arrow arrays of Variant values.
pub const VARIANT_EXTENSION_NAME: &str = "arrow.parquet.variant";

/// The extension metadata of a group annotated `VARIANT`; `None` for
/// other logical types, or without the feature.
#[cfg_attr(not(feature = "variant_experimental"), allow(unused_variables))]
pub(crate) fn extension_metadata(logical: Option<&LogicalType>) -> Option<HashMap<String, String>> {
    #[cfg(feature = "variant_experimental")]
    if let Some(LogicalType::Variant(_)) = logical {
        return Some(HashMap::from([
            (
                arrow_schema::extension::EXTENSION_TYPE_NAME_KEY.to_string(),
                VARIANT_EXTENSION_NAME.to_string(),
            ),
            (
                arrow_schema::extension::EXTENSION_TYPE_METADATA_KEY.to_string(),
                String::new(),
            ),
        ]));
    }
    None
}

/// The logical type a struct field is written with: `VARIANT` for a field
/// of the Variant extension type; `None` otherwise, or without the feature.
#[cfg_attr(not(feature = "variant_experimental"), allow(unused_variables))]
pub(crate) fn logical_type(field: &Field) -> Option<LogicalType> {
    #[cfg(feature = "variant_experimental")]
    if field.extension_type_name() == Some(VARIANT_EXTENSION_NAME) {
        return Some(LogicalType::Variant(strata_format::metadata::VariantType {
            specification_version: None,
        }));
    }
    None
}

/// Unshred `array` (as `parquet_variant_compute::unshred_variant`), first
/// checking what that function takes on trust: an error, not a panic, for
/// a present shredded object field whose name its row's metadata does not
/// hold, and for any row of the result whose value is not valid Variant.
///
/// ```
/// use parquet_variant::VariantBuilderExt;
/// use parquet_variant_compute::{VariantArrayBuilder, shred_variant};
/// use arrow_schema::DataType;
/// use strata_arrow::variant::unshred_variant;
///
/// let mut builder = VariantArrayBuilder::new(2);
/// builder.append_value(7i64);
/// builder.append_value("seven");
/// let shredded = shred_variant(&builder.build(), &DataType::Int64)?;
/// let values = unshred_variant(&shredded)?;
/// assert_eq!(values.value(1), parquet_variant::Variant::from("seven"));
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
#[cfg(feature = "variant_experimental")]
pub fn unshred_variant(
    array: &parquet_variant_compute::VariantArray,
) -> Result<parquet_variant_compute::VariantArray, arrow_schema::ArrowError> {
    use parquet_variant::{Variant, VariantMetadata};

    let metadata = array.metadata_column();
    let dictionaries: Vec<Option<VariantMetadata<'_>>> = (0..array.len())
        .map(|i| {
            if array.is_null(i) {
                return Ok(None);
            }
            let bytes = binary_value(metadata, i)?;
            VariantMetadata::try_new(bytes).map(Some)
        })
        .collect::<Result<_, _>>()?;
    if let Some(typed_value) = array.typed_value_column() {
        let slots: Vec<(usize, usize)> = (0..array.len())
            .filter(|&i| array.is_valid(i))
            .map(|i| (i, i))
            .collect();
        check_field_names(typed_value, &slots, &dictionaries)?;
    }
    let unshredded = parquet_variant_compute::unshred_variant(array)?;
    let (metadata, value) = (unshredded.metadata_column(), unshredded.value_column());
    for i in 0..unshredded.len() {
        if !unshredded.is_null(i) && value.is_valid(i) {
            Variant::try_new(binary_value(metadata, i)?, binary_value(value, i)?)?;
        }
    }
    Ok(unshredded)
}

/// The bytes of row `i` of a binary-like Variant column.
#[cfg(feature = "variant_experimental")]
fn binary_value(
    array: &arrow_array::ArrayRef,
    i: usize,
) -> Result<&[u8], arrow_schema::ArrowError> {
    use arrow_array::cast::AsArray;
    use arrow_schema::DataType;
    Ok(match array.data_type() {
        DataType::Binary => array.as_binary::<i32>().value(i),
        DataType::LargeBinary => array.as_binary::<i64>().value(i),
        DataType::BinaryView => array.as_binary_view().value(i),
        other => {
            return Err(arrow_schema::ArrowError::InvalidArgumentError(format!(
                "a Variant's metadata and value must be binary, not {other}"
            )));
        }
    })
}

/// Check that every shredded object field present in `typed_value` is
/// named in its row's dictionary, at every depth. `slots` are the
/// elements of `typed_value` the unshredder reads, each with the
/// top-level row it reads it for (an element of overlapping list views
/// once per row).
#[cfg(feature = "variant_experimental")]
fn check_field_names(
    typed_value: &arrow_array::ArrayRef,
    slots: &[(usize, usize)],
    dictionaries: &[Option<parquet_variant::VariantMetadata<'_>>],
) -> Result<(), arrow_schema::ArrowError> {
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_schema::DataType;

    let spans = match typed_value.data_type() {
        DataType::Struct(fields) => {
            let object = typed_value.as_struct();
            // The slots where the value is a shredded object.
            let objects: Vec<(usize, usize)> = slots
                .iter()
                .copied()
                .filter(|&(j, _)| object.is_valid(j))
                .collect();
            for (field, column) in fields.iter().zip(object.columns()) {
                // A malformed field (not a struct) is the unshredder's to refuse.
                let Some(shredded) = column.as_struct_opt() else {
                    continue;
                };
                let value = shredded.column_by_name("value");
                let inner = shredded.column_by_name("typed_value");
                let mut present = Vec::new();
                for &(j, row) in &objects {
                    let in_value = value.is_some_and(|v| v.is_valid(j));
                    let in_typed = inner.is_some_and(|t| t.is_valid(j));
                    if !in_value && !in_typed {
                        continue;
                    }
                    if let Some(Some(dictionary)) = dictionaries.get(row)
                        && dictionary.get_entry(field.name()).is_none()
                    {
                        return Err(arrow_schema::ArrowError::InvalidArgumentError(format!(
                            "shredded field '{}' of row {row} is not in its metadata dictionary",
                            field.name()
                        )));
                    }
                    if in_typed {
                        present.push((j, row));
                    }
                }
                if let Some(inner) = inner {
                    check_field_names(inner, &present, dictionaries)?;
                }
            }
            return Ok(());
        }
        DataType::List(_) => list_spans(typed_value.as_list::<i32>()),
        DataType::LargeList(_) => list_spans(typed_value.as_list::<i64>()),
        DataType::ListView(_) => list_view_spans(typed_value.as_list_view::<i32>()),
        DataType::LargeListView(_) => list_view_spans(typed_value.as_list_view::<i64>()),
        DataType::FixedSizeList(_, size) => {
            let list = typed_value.as_fixed_size_list();
            let size = usize::try_from(*size).unwrap_or(0);
            let spans = (0..list.len())
                .map(|j| (j * size, (j + 1) * size))
                .collect();
            (list.values(), spans)
        }
        _ => return Ok(()),
    };
    let (elements, spans) = spans;
    let Some(inner) = elements
        .as_struct_opt()
        .and_then(|e| e.column_by_name("typed_value"))
    else {
        return Ok(());
    };
    // The elements each list's slot reads, for that slot's row.
    let mut element_slots = Vec::new();
    for &(j, row) in slots {
        if !typed_value.is_valid(j) {
            continue;
        }
        if let Some(&(start, end)) = spans.get(j) {
            let end = end.min(elements.len());
            element_slots.extend((start.min(end)..end).map(|k| (k, row)));
        }
    }
    check_field_names(inner, &element_slots, dictionaries)
}

/// A list array's values and each list's range of them.
#[cfg(feature = "variant_experimental")]
fn list_spans<O: arrow_array::OffsetSizeTrait>(
    list: &arrow_array::GenericListArray<O>,
) -> (&arrow_array::ArrayRef, Vec<(usize, usize)>) {
    let spans = list
        .offsets()
        .windows(2)
        .map(|w| (w[0].as_usize(), w[1].as_usize()))
        .collect();
    (list.values(), spans)
}

/// A list view array's values and each view's range of them.
#[cfg(feature = "variant_experimental")]
fn list_view_spans<O: arrow_array::OffsetSizeTrait>(
    list: &arrow_array::GenericListViewArray<O>,
) -> (&arrow_array::ArrayRef, Vec<(usize, usize)>) {
    let spans = list
        .offsets()
        .iter()
        .zip(list.sizes().iter())
        .map(|(o, s)| (o.as_usize(), o.as_usize() + s.as_usize()))
        .collect();
    (list.values(), spans)
}
