// Programs using the schema API as arrow-rs users write it: a message
// type parsed from text and printed back, a tree built with the type
// builders, a `SchemaDescriptor` and its columns walked, a file's schema
// and metadata printed, rows read through a projection given as a parsed
// type, logical types matched in user code, and the errors of the
// builders and the parser. Each prints a `rows: ` line (0 where no file is
// read) so that the suite can tell the program ran.
// Included into a module that has `pq` in scope.

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{Int32Builder, ListBuilder, StringBuilder, StructBuilder};
use arrow_array::{
    ArrayRef, Decimal128Array, FixedSizeBinaryArray, Int64Array, RecordBatch,
    TimestampMillisecondArray,
};
use arrow_schema::{DataType, Field, Fields};
use bytes::Bytes;

use pq::basic::{
    ConvertedType, DecimalType, IntType, LogicalType, Repetition, TimeUnit, TimestampType,
    Type as PhysicalType,
};
use pq::file::reader::{FileReader, SerializedFileReader};
use pq::schema::parser::parse_message_type;
use pq::schema::printer::{print_file_metadata, print_parquet_metadata, print_schema};
use pq::schema::types::{ColumnDescriptor, SchemaDescriptor, Type, TypePtr};

use crate::data::people;
use super::common::to_parquet;

/// A message type with every kind of field the parser reads.
const MESSAGE: &str = "
message spark_schema {
  required int64 id = 1;
  optional binary name (UTF8);
  optional binary title (STRING) = 7;
  optional int32 small (INTEGER(8,true));
  optional int64 big_unsigned (INTEGER(64,false));
  optional int32 legacy_small (INT_16);
  optional int32 price (DECIMAL(9,2));
  optional fixed_len_byte_array(16) wide_price (DECIMAL(30,4));
  optional binary legacy_price (DECIMAL(12));
  optional int64 at (TIMESTAMP(MILLIS,true));
  optional int64 local_at (TIMESTAMP(NANOS,false));
  optional int32 day (DATE);
  optional int32 time_of_day (TIME(MILLIS,false));
  optional fixed_len_byte_array(16) uuid (UUID);
  optional fixed_len_byte_array(2) half (FLOAT16);
  optional binary doc (JSON);
  required boolean flag;
  optional float ratio;
  optional double score;
  optional int96 legacy_ts;
  optional group tags (LIST) {
    repeated group list {
      optional binary element (STRING);
    }
  }
  optional group attrs (MAP) = 3 {
    repeated group key_value {
      required binary key (UTF8);
      optional int32 value;
    }
  }
  required group address {
    optional binary city (UTF8);
    repeated group zips {
      required int32 zip;
    }
  }
}
";

fn schema_text(tp: &Type) -> String {
    let mut out = Vec::new();
    print_schema(&mut out, tp);
    String::from_utf8(out).unwrap()
}

/// One line per leaf: path, types, annotations and levels.
fn describe_column(c: &ColumnDescriptor) -> String {
    format!(
        "{} name={} physical={} converted={} logical={:?} length={} precision={} scale={} def={} rep={}",
        c.path(),
        c.name(),
        c.physical_type(),
        c.converted_type(),
        c.logical_type_ref(),
        c.type_length(),
        c.type_precision(),
        c.type_scale(),
        c.max_def_level(),
        c.max_rep_level(),
    )
}

/// Parse a message type, print it, parse the printed text again.
pub fn parse_and_print_message_type(_dir: &Path) -> String {
    let parsed = parse_message_type(MESSAGE).unwrap();
    let printed = schema_text(&parsed);
    // Field ids print as `[id]`, which the parser does not read back:
    // compare without them.
    let without_ids = parse_message_type(&MESSAGE.replace(" = 1;", ";").replace(" = 7;", ";").replace(" = 3 {", " {")).unwrap();
    let again = parse_message_type(&schema_text(&without_ids)).unwrap();
    format!(
        "rows: 0\n{printed}reparsed equal: {}\nis_schema: {} fields: {}\n",
        again == without_ids,
        parsed.is_schema(),
        parsed.get_fields().len()
    )
}

/// Build a tree with the builders, make a descriptor, walk its columns.
pub fn builders_and_descriptor(_dir: &Path) -> String {
    let id = Type::primitive_type_builder("id", PhysicalType::INT64)
        .with_repetition(Repetition::REQUIRED)
        .with_id(Some(10))
        .build()
        .unwrap();
    let amount = Type::primitive_type_builder("amount", PhysicalType::FIXED_LEN_BYTE_ARRAY)
        .with_length(8)
        .with_precision(18)
        .with_scale(3)
        .with_logical_type(Some(LogicalType::decimal(3, 18)))
        .build()
        .unwrap();
    let legacy = Type::primitive_type_builder("legacy", PhysicalType::INT32)
        .with_converted_type(ConvertedType::UINT_16)
        .build()
        .unwrap();
    let element = Type::primitive_type_builder("element", PhysicalType::BYTE_ARRAY)
        .with_logical_type(Some(LogicalType::String))
        .build()
        .unwrap();
    let list = Type::group_type_builder("list")
        .with_repetition(Repetition::REPEATED)
        .with_fields(vec![Arc::new(element)])
        .build()
        .unwrap();
    let tags = Type::group_type_builder("tags")
        .with_repetition(Repetition::OPTIONAL)
        .with_logical_type(Some(LogicalType::List))
        .with_fields(vec![Arc::new(list)])
        .build()
        .unwrap();
    let fields: Vec<TypePtr> = vec![Arc::new(id), Arc::new(amount), Arc::new(legacy), Arc::new(tags)];
    let root = Type::group_type_builder("record")
        .with_fields(fields)
        .build()
        .unwrap();
    let descr = SchemaDescriptor::new(Arc::new(root));
    let mut out = format!(
        "rows: 0\nname: {} columns: {}\n",
        descr.name(),
        descr.num_columns()
    );
    for i in 0..descr.num_columns() {
        let column = descr.column(i);
        out.push_str(&describe_column(&column));
        out.push_str(&format!(
            " root={} root_idx={} primitive={}\n",
            descr.get_column_root(i).name(),
            descr.get_column_root_idx(i),
            column.self_type().is_primitive()
        ));
    }
    let tags = descr.get_column_root_ptr(3);
    let info = tags.get_basic_info();
    out.push_str(&format!(
        "tags: group={} optional={} converted={} logical={:?} has_id={}\n",
        tags.is_group(),
        tags.is_optional(),
        info.converted_type(),
        info.logical_type_ref(),
        info.has_id()
    ));
    let id = &descr.root_schema().get_fields()[0];
    out.push_str(&format!(
        "id: has_id={} id={} repetition={} physical={}\n",
        id.get_basic_info().has_id(),
        id.get_basic_info().id(),
        id.get_basic_info().repetition(),
        id.get_physical_type()
    ));
    out.push_str(&schema_text(descr.root_schema()));
    out
}

/// The columns of a parsed message type, walked the way tools print them.
pub fn walk_parsed_columns(_dir: &Path) -> String {
    let schema = SchemaDescriptor::new(Arc::new(parse_message_type(MESSAGE).unwrap()));
    let mut out = format!("rows: 0\ncolumns: {}\n", schema.num_columns());
    for column in schema.columns() {
        out.push_str(&describe_column(column));
        out.push('\n');
    }
    out
}

fn nested_batch() -> RecordBatch {
    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..6));
    let prices: ArrayRef = Arc::new(
        Decimal128Array::from_iter((0..6).map(|i| (i % 4 != 1).then_some(i * 1234)))
            .with_precision_and_scale(9, 2)
            .unwrap(),
    );
    let at: ArrayRef = Arc::new(
        TimestampMillisecondArray::from_iter((0..6).map(|i| Some(1_700_000_000_000 + i)))
            .with_timezone("UTC"),
    );
    let uuids: ArrayRef = Arc::new(
        FixedSizeBinaryArray::try_from_iter((0..6u8).map(|i| [i; 16])).unwrap(),
    );
    // The element named as the specification names it, which both
    // writers then keep.
    let mut tags = ListBuilder::new(StringBuilder::new())
        .with_field(Arc::new(Field::new("element", DataType::Utf8, true)));
    for i in 0..6 {
        for j in 0..i % 3 {
            tags.values().append_value(format!("t{j}"));
        }
        tags.append(i % 5 != 4);
    }
    let tags: ArrayRef = Arc::new(tags.finish());
    let address_fields = Fields::from(vec![
        Field::new("city", DataType::Utf8, true),
        Field::new("zip", DataType::Int32, false),
    ]);
    let mut address = StructBuilder::from_fields(address_fields.clone(), 6);
    for i in 0..6 {
        address
            .field_builder::<StringBuilder>(0)
            .unwrap()
            .append_option((i % 2 == 0).then(|| format!("city-{i}")));
        address
            .field_builder::<Int32Builder>(1)
            .unwrap()
            .append_value(1000 + i);
        address.append(true);
    }
    let address: ArrayRef = Arc::new(address.finish());
    RecordBatch::try_from_iter_with_nullable(vec![
        ("id", ids, false),
        ("price", prices, true),
        ("at", at, true),
        ("uuid", uuids, true),
        ("tags", tags, true),
        ("address", address, false),
    ])
    .unwrap()
}

fn nested_file() -> Bytes {
    to_parquet(&nested_batch(), 4)
}

/// `print_schema` of a written file's schema, and its columns.
pub fn print_schema_of_written_file(_dir: &Path) -> String {
    let reader = SerializedFileReader::new(nested_file()).unwrap();
    let metadata = reader.metadata().file_metadata();
    let mut out = format!("rows: {}\n", metadata.num_rows());
    out.push_str(&schema_text(metadata.schema()));
    for column in metadata.schema_descr().columns() {
        out.push_str(&describe_column(column));
        out.push('\n');
    }
    out
}

/// `print_file_metadata`, without what differs between writers (the
/// writer's name, the embedded Arrow schema).
pub fn print_file_metadata_normalized(_dir: &Path) -> String {
    let reader = SerializedFileReader::new(to_parquet(&people(9), 4)).unwrap();
    let mut out = Vec::new();
    print_file_metadata(&mut out, reader.metadata().file_metadata());
    let text = String::from_utf8(out).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("created by:") && !l.starts_with("  ARROW:schema:"))
        .collect();
    kept.join("\n")
}

/// `print_parquet_metadata`, keeping the lines that do not depend on how
/// pages were laid out and compressed.
pub fn print_parquet_metadata_structure(_dir: &Path) -> String {
    let reader = SerializedFileReader::new(to_parquet(&people(10), 4)).unwrap();
    let mut out = Vec::new();
    print_parquet_metadata(&mut out, reader.metadata());
    let text = String::from_utf8(out).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| {
            [
                "version:",
                "num of rows:",
                "num of row groups:",
                "row group ",
                "num of columns:",
                "column ",
                "column type:",
                "column path:",
                "num of values:",
                "compression:",
                "file path:",
                "message ",
                "  ",
                "}",
            ]
            .iter()
            .any(|p| l.starts_with(p))
                && !l.contains("ARROW:schema")
                && !l.starts_with("column index")
        })
        .collect();
    kept.join("\n")
}

/// Rows read through a projection given as a parsed message type.
pub fn row_projection_by_schema_type(_dir: &Path) -> String {
    let file = to_parquet(&people(5), 2);
    let reader = SerializedFileReader::new(file).unwrap();
    let projection = parse_message_type(
        "message arrow_schema { REQUIRED INT64 id; OPTIONAL BOOLEAN active; }",
    )
    .unwrap();
    let rows: Vec<String> = reader
        .get_row_iter(Some(projection))
        .unwrap()
        .map(|row| row.unwrap().to_string())
        .collect();
    let contained = reader
        .metadata()
        .file_metadata()
        .schema()
        .check_contains(&parse_message_type("message arrow_schema { OPTIONAL BYTE_ARRAY name (STRING); }").unwrap());
    format!(
        "rows: {}\n{}\ncontains name: {contained}\n",
        rows.len(),
        rows.join("\n")
    )
}

/// What a user's code makes of each leaf's logical type.
fn kind_of(logical: Option<&LogicalType>, converted: ConvertedType) -> String {
    match logical {
        Some(LogicalType::Decimal(DecimalType { precision, scale })) => {
            format!("decimal p={precision} s={scale}")
        }
        Some(LogicalType::Timestamp(TimestampType {
            unit: TimeUnit::MILLIS,
            is_adjusted_to_u_t_c,
        })) => format!("timestamp ms utc={is_adjusted_to_u_t_c}"),
        Some(LogicalType::Timestamp(t)) => format!("timestamp {:?} utc={}", t.unit, t.is_adjusted_to_u_t_c),
        Some(LogicalType::Time(t)) => format!("time {:?}", t.unit),
        Some(LogicalType::Integer(IntType {
            bit_width,
            is_signed: true,
        })) => format!("signed {bit_width}"),
        Some(LogicalType::Integer(IntType { bit_width, .. })) => format!("unsigned {bit_width}"),
        Some(LogicalType::String) => "string".to_string(),
        Some(other) => format!("other {other:?}"),
        None => match converted {
            ConvertedType::NONE => "plain".to_string(),
            ConvertedType::UTF8 => "legacy string".to_string(),
            ConvertedType::INT_16 => "legacy int16".to_string(),
            other => format!("legacy {other}"),
        },
    }
}

/// Logical types matched in user code, built with arrow-rs's
/// constructors, and mapped to converted types.
pub fn logical_type_matching(_dir: &Path) -> String {
    let schema = SchemaDescriptor::new(Arc::new(parse_message_type(MESSAGE).unwrap()));
    let mut out = String::from("rows: 0\n");
    for column in schema.columns() {
        out.push_str(&format!(
            "{}: {}\n",
            column.name(),
            kind_of(column.logical_type_ref(), column.converted_type())
        ));
    }
    let built = [
        LogicalType::integer(16, false),
        LogicalType::decimal(2, 10),
        LogicalType::timestamp(false, TimeUnit::MICROS),
        LogicalType::time(true, TimeUnit::NANOS),
        LogicalType::Date,
        LogicalType::Uuid,
        LogicalType::Unknown,
    ];
    for logical in built {
        let converted = ConvertedType::from(Some(logical.clone()));
        out.push_str(&format!("{logical:?} -> {converted}\n"));
    }
    out.push_str(&format!(
        "{} {} {}\n",
        "UTF8".parse::<ConvertedType>().unwrap(),
        "BINARY".parse::<PhysicalType>().unwrap(),
        "OPTIONAL".parse::<Repetition>().unwrap()
    ));
    out
}

/// The builders' errors, as users print them.
pub fn builder_errors(_dir: &Path) -> String {
    let results = [
        Type::primitive_type_builder("f", PhysicalType::FIXED_LEN_BYTE_ARRAY).build(),
        Type::primitive_type_builder("s", PhysicalType::INT32)
            .with_converted_type(ConvertedType::UTF8)
            .build(),
        Type::primitive_type_builder("d", PhysicalType::INT32)
            .with_converted_type(ConvertedType::DECIMAL)
            .with_precision(12)
            .with_scale(2)
            .build(),
        Type::primitive_type_builder("d", PhysicalType::INT64)
            .with_logical_type(Some(LogicalType::decimal(2, 10)))
            .with_precision(10)
            .with_scale(3)
            .build(),
        Type::primitive_type_builder("d", PhysicalType::BYTE_ARRAY)
            .with_converted_type(ConvertedType::DECIMAL)
            .with_precision(3)
            .with_scale(5)
            .build(),
        Type::primitive_type_builder("d", PhysicalType::FIXED_LEN_BYTE_ARRAY)
            .with_length(4)
            .with_converted_type(ConvertedType::DECIMAL)
            .with_precision(12)
            .with_scale(2)
            .build(),
        Type::primitive_type_builder("u", PhysicalType::FIXED_LEN_BYTE_ARRAY)
            .with_length(8)
            .with_logical_type(Some(LogicalType::Uuid))
            .build(),
        Type::primitive_type_builder("t", PhysicalType::INT64)
            .with_logical_type(Some(LogicalType::time(true, TimeUnit::MILLIS)))
            .build(),
        Type::primitive_type_builder("l", PhysicalType::INT32)
            .with_logical_type(Some(LogicalType::List))
            .build(),
        Type::primitive_type_builder("i", PhysicalType::INT32)
            .with_logical_type(Some(LogicalType::String))
            .with_converted_type(ConvertedType::UTF8)
            .build(),
        Type::primitive_type_builder("i", PhysicalType::INT32)
            .with_logical_type(Some(LogicalType::integer(8, true)))
            .with_converted_type(ConvertedType::INT_16)
            .build(),
        Type::primitive_type_builder("m", PhysicalType::INT32)
            .with_converted_type(ConvertedType::MAP)
            .build(),
        Type::primitive_type_builder("iv", PhysicalType::FIXED_LEN_BYTE_ARRAY)
            .with_length(10)
            .with_converted_type(ConvertedType::INTERVAL)
            .build(),
        Type::primitive_type_builder("ok", PhysicalType::INT32)
            .with_logical_type(Some(LogicalType::Date))
            .build(),
    ];
    let mut out = String::from("rows: 0\n");
    for result in results {
        match result {
            Ok(tp) => out.push_str(&format!("ok {}\n", tp.name())),
            Err(e) => out.push_str(&format!("{e}\n")),
        }
    }
    out
}

/// The parser's errors, as users print them.
pub fn parser_errors(_dir: &Path) -> String {
    let inputs = [
        "",
        "test",
        "message",
        "message m",
        "message m { required int32 }",
        "message m { required int32 a }",
        "message m { mandatory int32 a; }",
        "message m { required integer a; }",
        "message m { required fixed_len_byte_array a; }",
        "message m { required fixed_len_byte_array(x) a; }",
        "message m { required binary a (WHATEVER); }",
        "message m { required binary a (UTF8; }",
        "message m { required int32 a (DECIMAL(x,2)); }",
        "message m { required int64 a (TIMESTAMP(SECONDS,true)); }",
        "message m { required int64 a (TIMESTAMP(MILLIS,maybe)); }",
        "message m { required int64 a (INTEGER(32,true)); }",
        "message m { required binary a (INTEGER(8,true)); }",
        "message m { required int32 a (INTERVAL); }",
        "message m { required group g { required int32 a; }",
    ];
    let mut out = String::from("rows: 0\n");
    for input in inputs {
        match parse_message_type(input) {
            Ok(tp) => out.push_str(&format!("ok: {} fields\n", tp.get_fields().len())),
            Err(e) => out.push_str(&format!("{e}\n")),
        }
    }
    out
}
