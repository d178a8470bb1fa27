//! The schema types, parser and printer against arrow-rs 60.1: bad text is
//! an error and never a panic (truncations, mutations, deep nesting, huge
//! numbers), parse → print → parse is the identity, a footer's schema
//! elements survive the trip through `Type`, and every file of the
//! parquet-testing corpus prints the schema arrow-rs prints.
//!
//! The corpus lives beside the workspace at `../shared/parquet-testing`;
//! the corpus tests are skipped, with a message, when it is absent.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod corpus_support;

use std::panic::{AssertUnwindSafe, catch_unwind};

use corpus_support::{corpus_root, parquet_files};
use strata_file::serialized_reader::SerializedFileReader;
use strata_format::schema::parser::parse_message_type;
use strata_format::schema::printer::schema_to_string;
use strata_format::schema::{MAX_SCHEMA_DEPTH, SchemaDescriptor};

/// Schemas in the textual form, covering every annotation the parser
/// reads.
const SCHEMAS: &[&str] = &[
    "message m { }",
    "message empty_group { optional group g { } }",
    "message spark_schema {
       required int64 id = 1;
       optional binary name (UTF8);
       optional binary title (STRING);
       optional int32 a (INTEGER(8,true));
       optional int32 b (INTEGER(16,false));
       optional int64 c (INTEGER(64,true));
       optional int32 d (INT_8);
       optional int64 e (UINT_64);
       optional int32 f (DECIMAL(9,2));
       optional int64 g (DECIMAL(18));
       optional fixed_len_byte_array(16) h (DECIMAL(38,10));
       optional binary i (DECIMAL(50,5));
       optional int64 j (TIMESTAMP(MICROS,false));
       optional int64 k (TIMESTAMP_MILLIS);
       optional int32 l (TIME(MILLIS,true));
       optional int64 n (TIME(NANOS,false));
       optional int32 o (DATE);
       optional fixed_len_byte_array(16) p (UUID);
       optional fixed_len_byte_array(2) q (FLOAT16);
       optional fixed_len_byte_array(12) r (INTERVAL);
       optional binary s (JSON);
       optional binary t (BSON);
       optional binary u (ENUM);
       optional int32 v (UNKNOWN);
       optional binary w (GEOMETRY);
       required boolean flag;
       optional float ratio;
       optional double score;
       optional int96 legacy;
     }",
    "message nested {
       optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
       optional group legacy_list (LIST) { repeated int32 array; }
       optional group attrs (MAP) { repeated group key_value { required binary key (UTF8); optional int32 value; } }
       optional group old_map (MAP_KEY_VALUE) { repeated group map { required binary key; } }
       required group a { required group b { repeated group c { optional int32 d; } } }
     }",
    "message upper { REQUIRED INT32 a; OPTIONAL GROUP g { REPEATED BINARY b; } }",
];

/// Whether `f` panics (with the panic hook's message silenced).
fn panics(f: impl FnOnce()) -> bool {
    catch_unwind(AssertUnwindSafe(f)).is_err()
}

/// Strata's verdict on `text` and arrow-rs's agree: both accept it and
/// print the same schema, or both refuse it with the same message.
/// Inputs arrow-rs panics on are only required not to panic in strata.
fn agrees_with_arrow_rs(text: &str) {
    let ours = parse_message_type(text);
    let theirs = catch_unwind(AssertUnwindSafe(|| {
        parquet::schema::parser::parse_message_type(text)
    }));
    let Ok(theirs) = theirs else { return };
    match (ours, theirs) {
        (Ok(ours), Ok(theirs)) => {
            let mut printed = Vec::new();
            parquet::schema::printer::print_schema(&mut printed, &theirs);
            assert_eq!(
                format!("{}\n", schema_to_string(&ours)),
                String::from_utf8(printed).unwrap(),
                "{text:?}"
            );
        }
        (Err(ours), Err(theirs)) => assert_eq!(ours.to_string(), theirs.to_string(), "{text:?}"),
        (ours, theirs) => panic!(
            "{text:?}: strata {:?}, arrow-rs {:?}",
            ours.map(|t| schema_to_string(&t)),
            theirs.map(|_| "ok")
        ),
    }
}

#[test]
fn schemas_parse_print_and_parse_back() {
    for text in SCHEMAS {
        let parsed = parse_message_type(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let printed = schema_to_string(&parsed);
        // Field ids print as `[id]`, which (as in arrow-rs) the parser does
        // not read: compare the rest.
        let without_ids = printed.replace(" [1]", "");
        let again = parse_message_type(&without_ids).unwrap_or_else(|e| panic!("{printed}: {e}"));
        if text.contains('=') {
            assert_eq!(schema_to_string(&again), without_ids);
        } else {
            assert_eq!(again, parsed, "{printed}");
        }
        agrees_with_arrow_rs(text);
        agrees_with_arrow_rs(&printed);
        // A schema the parser accepts makes a descriptor.
        SchemaDescriptor::try_new(std::sync::Arc::new(parsed)).unwrap();
    }
}

#[test]
fn bad_text_is_an_error_as_in_arrow_rs() {
    let bad = [
        "",
        "   ",
        "message",
        "message m",
        "message m {",
        "message m { required",
        "message m { required int32",
        "message m { required int32 a",
        "message m { required int32 a (",
        "message m { required int32 a (DECIMAL",
        "message m { required int32 a (DECIMAL(",
        "message m { required int32 a (DECIMAL(9,",
        "message m { required int32 a (DECIMAL(9,2",
        "message m { required int32 a (DECIMAL(9,2)",
        "message m { required int32 a (DECIMAL(9,2))",
        "message m { required int32 a = ; }",
        "message m { required int32 a = x; }",
        "group m { }",
        "MESSAGE m { }",
        "message m { optional group }",
        "message m { optional group g (LIST }",
        "message m { optional group g (WHAT) { } }",
        "message m { required fixed_len_byte_array(-1) a; }",
        "message m { required fixed_len_byte_array(99999999999) a; }",
        "message m { required fixed_len_byte_array(2147483647) a (DECIMAL(9,2)); }",
        "message m { required fixed_len_byte_array(268435456) a (DECIMAL(9,2)); }",
        "message m { required int32 a (DECIMAL(99999999999,2)); }",
        "message m { required int32 a (DECIMAL(-3,2)); }",
        "message m { required int32 a (DECIMAL(3,-2)); }",
        "message m { required int32 a (INTEGER(300,true)); }",
        "message m { required int32 a (INTEGER(7,true)); }",
        "message m { required int32 a (INTEGER(8,maybe)); }",
        "message m { required int32 a (INTEGER(8)); }",
        "message m { required int32 a (INTEGER); }",
        "message m { required int64 a (TIME(MICROS)); }",
        "message m { required int64 a (TIME); }",
        "message m { required int64 a (TIMESTAMP(,true)); }",
        "message m { required binary a (UTF8) = 99999999999; }",
        "message m { required binary a (INTERVAL); }",
        "message m { required int32 a (LIST); }",
        "message m { required int32 a (MAP_KEY_VALUE); }",
        "message m { required binary a (UUID); }",
        "message m { required int32 a; } trailing tokens",
        "message m { required int32 a; }}}}",
        "message m { required int32 ; }",
        "message ( { }",
        "message m { required int32 a ( ) ; }",
        "message m { required int32 a;;; }",
        "message m{required int32 a;required int32 a;}",
        "message m { required int32 a (DATE) = 1 = 2; }",
        "message m { \u{fffd} \u{1f600} }",
    ];
    for text in bad {
        assert!(!panics(|| drop(parse_message_type(text))), "{text:?}");
        agrees_with_arrow_rs(text);
    }
}

/// A deterministic generator of small numbers.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

#[test]
fn truncated_and_mutated_text_never_panics() {
    let pieces = [
        "message",
        "m",
        "{",
        "}",
        "(",
        ")",
        ";",
        "=",
        ",",
        "required",
        "optional",
        "repeated",
        "group",
        "int32",
        "int64",
        "binary",
        "fixed_len_byte_array",
        "DECIMAL",
        "INTEGER",
        "TIMESTAMP",
        "TIME",
        "MILLIS",
        "true",
        "false",
        "LIST",
        "MAP",
        "UTF8",
        "7",
        "-1",
        "99999999999",
        "a",
    ];
    let mut rng = Lcg(7);
    for text in SCHEMAS {
        // Every prefix (at character boundaries).
        for (i, _) in text.char_indices() {
            let prefix = &text[..i];
            assert!(!panics(|| drop(parse_message_type(prefix))), "{prefix:?}");
        }
        // Tokens dropped, repeated or replaced.
        let words: Vec<&str> = text.split_whitespace().collect();
        for _ in 0..300 {
            let mut mutated = words.clone();
            let at = rng.below(mutated.len().max(1));
            match rng.below(3) {
                0 if !mutated.is_empty() => {
                    mutated.remove(at);
                }
                1 => mutated.insert(at, pieces[rng.below(pieces.len())]),
                _ if !mutated.is_empty() => mutated[at] = pieces[rng.below(pieces.len())],
                _ => {}
            }
            let mutated = mutated.join(" ");
            assert!(
                !panics(|| drop(parse_message_type(&mutated))),
                "{mutated:?}"
            );
            agrees_with_arrow_rs(&mutated);
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let nested = |depth: usize| {
        let mut text = String::from("message m {");
        for i in 0..depth {
            text.push_str(&format!(" optional group g{i} {{"));
        }
        text.push_str(" optional int32 leaf;");
        text.push_str(&" }".repeat(depth + 1));
        text
    };
    let ok = parse_message_type(&nested(MAX_SCHEMA_DEPTH - 1)).unwrap();
    SchemaDescriptor::try_new(std::sync::Arc::new(ok)).unwrap();
    assert!(parse_message_type(&nested(MAX_SCHEMA_DEPTH + 1)).is_err());
    assert!(parse_message_type(&nested(100_000)).is_err());
    // Unclosed, as a fuzzer would write it.
    assert!(parse_message_type(&"message m { optional group g {".repeat(50_000)).is_err());
}

#[test]
fn corpus_schemas_round_trip_and_print_as_arrow_rs_prints_them() {
    let Some(root) = corpus_root("corpus_schemas_round_trip_and_print_as_arrow_rs_prints_them")
    else {
        return;
    };
    let mut compared = 0;
    for path in parquet_files(&root.join("data")) {
        let name = path.display().to_string();
        let Ok(ours) = SerializedFileReader::try_from(path.as_path()) else {
            continue;
        };
        // Footer elements → Type → elements.
        let elements = &ours.footer().schema;
        let descr = SchemaDescriptor::from_elements(elements).unwrap();
        assert_eq!(&descr.to_elements(), elements, "{name}");
        // Printed → parsed → printed.
        let printed = schema_to_string(descr.root_schema());
        if let Ok(reparsed) = parse_message_type(&printed) {
            assert_eq!(schema_to_string(&reparsed), printed, "{name}");
        }
        // The same text as arrow-rs's printer.
        let Ok(theirs) = parquet::file::reader::SerializedFileReader::try_from(path.as_path())
        else {
            continue;
        };
        let mut expected = Vec::new();
        parquet::schema::printer::print_schema(
            &mut expected,
            parquet::file::reader::FileReader::metadata(&theirs)
                .file_metadata()
                .schema(),
        );
        let mut actual = Vec::new();
        strata_file::metadata::printer::print_schema(
            &mut actual,
            ours.metadata().file_metadata().schema(),
        );
        assert_eq!(
            String::from_utf8(actual).unwrap(),
            String::from_utf8(expected).unwrap(),
            "{name}"
        );
        compared += 1;
    }
    assert!(compared > 50, "only {compared} corpus files compared");
}

/// The lines of `print_parquet_metadata` for every corpus file both
/// readers open, compared with arrow-rs's; returns the files that differ
/// with their first differing line.
fn parquet_metadata_differences(root: &std::path::Path) -> (usize, Vec<String>) {
    let mut compared = 0;
    let mut differing = Vec::new();
    for path in parquet_files(&root.join("data")) {
        let (Ok(ours), Ok(theirs)) = (
            SerializedFileReader::try_from(path.as_path()),
            parquet::file::reader::SerializedFileReader::try_from(path.as_path()),
        ) else {
            continue;
        };
        let mut expected = Vec::new();
        parquet::schema::printer::print_parquet_metadata(
            &mut expected,
            parquet::file::reader::FileReader::metadata(&theirs),
        );
        let mut actual = Vec::new();
        strata_file::metadata::printer::print_parquet_metadata(&mut actual, ours.metadata());
        let (expected, actual) = (
            String::from_utf8(expected).unwrap(),
            String::from_utf8(actual).unwrap(),
        );
        compared += 1;
        if let Some((e, a)) = expected.lines().zip(actual.lines()).find(|(e, a)| e != a) {
            let cut = |s: &str| s.chars().take(240).collect::<String>();
            differing.push(format!(
                "{}:\n  arrow-rs: {}\n  strata:   {}",
                path.display(),
                cut(e),
                cut(a)
            ));
        } else if expected != actual {
            differing.push(format!("{}: lengths differ", path.display()));
        }
    }
    (compared, differing)
}

#[test]
fn corpus_metadata_prints_as_arrow_rs_prints_it() {
    let Some(root) = corpus_root("corpus_metadata_prints_as_arrow_rs_prints_it") else {
        return;
    };
    let (compared, differing) = parquet_metadata_differences(&root);
    assert!(
        differing.is_empty(),
        "{} of {compared} files differ:\n{}",
        differing.len(),
        differing.join("\n")
    );
}
