//! Reads a schema's textual form (`message m { required int32 a; ... }`)
//! into a [`Type`], accepting what arrow-rs's
//! `parquet::schema::parser::parse_message_type` accepts.
//!
//! The grammar, informally:
//!
//! ```text
//! message   := "message" NAME "{" field* "}"
//! field     := REPETITION "group" NAME annotation? id? "{" field* "}"
//!            | REPETITION PHYSICAL length? NAME annotation? id? ";"
//! length    := "(" INT ")"                      -- FIXED_LEN_BYTE_ARRAY only
//! annotation:= "(" LOGICAL_OR_CONVERTED params? ")"
//! params    := "(" ... ")"  -- DECIMAL(p[,s]) TIME/TIMESTAMP(unit,utc) INTEGER(bits,signed)
//! id        := "=" INT
//! ```
//!
//! Keywords, repetitions, physical types and annotations are read in any
//! case; names are kept as written. Bad input gives an error, never a
//! panic; nesting deeper than [`MAX_SCHEMA_DEPTH`] is an error.
//!
//! ```
//! use strata_format::metadata::{ConvertedType, LogicalType, TimeUnit};
//! use strata_format::schema::parser::parse_message_type;
//!
//! let schema = parse_message_type(
//!     "message spark_schema {
//!        required int64 id = 1;
//!        optional binary name (STRING);
//!        optional int64 at (TIMESTAMP(MILLIS,true));
//!        optional fixed_len_byte_array(16) price (DECIMAL(30,2));
//!      }",
//! )
//! .unwrap();
//! let fields = schema.get_fields();
//! assert_eq!(fields[0].get_basic_info().id(), 1);
//! assert_eq!(fields[1].get_basic_info().converted_type(), ConvertedType::UTF8);
//! assert_eq!(
//!     fields[2].get_basic_info().logical_type_ref(),
//!     Some(&LogicalType::timestamp(true, TimeUnit::MILLIS))
//! );
//! assert_eq!((fields[3].get_precision(), fields[3].get_scale()), (30, 2));
//! assert!(parse_message_type("message m { required int32 }").is_err());
//! ```

use std::sync::Arc;

use super::{MAX_SCHEMA_DEPTH, Repetition, Type, TypePtr, general};
use crate::error::{FormatError, Result};
use crate::metadata::{ConvertedType, LogicalType, TimeUnit, Type as PhysicalType};

/// Parses a schema's textual form into its root group.
pub fn parse_message_type(message_type: &str) -> Result<Type> {
    Parser {
        tokens: tokenize(message_type),
        next: 0,
    }
    .message()
}

/// Whether `c` is a token by itself.
fn is_delimiter(c: char) -> bool {
    matches!(c, ';' | '{' | '}' | '(' | ')' | '=' | ',')
}

/// Splits on whitespace, then around each delimiter.
fn tokenize(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    for word in text.split_whitespace() {
        let mut rest = word;
        while let Some(at) = rest.find(is_delimiter) {
            let (head, tail) = rest.split_at(at);
            if !head.is_empty() {
                tokens.push(head);
            }
            // Delimiters are one byte (ASCII).
            tokens.push(&tail[..1]);
            rest = &tail[1..];
        }
        if !rest.is_empty() {
            tokens.push(rest);
        }
    }
    tokens
}

struct Parser<'a> {
    tokens: Vec<&'a str>,
    next: usize,
}

impl<'a> Parser<'a> {
    /// The next token, consumed.
    fn take(&mut self) -> Option<&'a str> {
        let token = self.tokens.get(self.next).copied();
        if token.is_some() {
            self.next += 1;
        }
        token
    }

    /// Consumes the next token if it is `expected`; otherwise leaves it.
    ///
    /// At the end of the input, a failed probe steps back one token, as
    /// arrow-rs's tokenizer does (it backtracks after every probe, even one
    /// that found nothing), so that errors name the same token.
    fn take_if(&mut self, expected: &str) -> bool {
        match self.tokens.get(self.next) {
            Some(t) if *t == expected => {
                self.next += 1;
                true
            }
            Some(_) => false,
            None => {
                self.next = self.next.saturating_sub(1);
                false
            }
        }
    }

    /// Consumes the next token, which must be `expected`.
    fn expect(&mut self, expected: &str) -> Result<()> {
        match self.take() {
            Some(t) if t == expected => Ok(()),
            Some(other) => Err(general(format!(
                "Expected '{expected}', found token '{other}'"
            ))),
            None => Err(general(format!(
                "Expected '{expected}', but no token found (None)"
            ))),
        }
    }

    fn name(&mut self) -> Result<&'a str> {
        self.take()
            .ok_or_else(|| general("Expected name, found None".to_owned()))
    }

    fn message(&mut self) -> Result<Type> {
        if self.take() != Some("message") {
            return Err(general(
                "Message type does not start with 'message'".to_owned(),
            ));
        }
        let name = self.name()?;
        let fields = self.fields(1)?;
        Type::group_type_builder(name).with_fields(fields).build()
    }

    /// `{ field* }`; the fields of a group at `depth`. As in arrow-rs, the
    /// end of the input also ends the list.
    fn fields(&mut self, depth: usize) -> Result<Vec<TypePtr>> {
        if depth > MAX_SCHEMA_DEPTH {
            return Err(FormatError::DepthLimit {
                limit: MAX_SCHEMA_DEPTH,
                offset: self.next,
            });
        }
        self.expect("{")?;
        let mut fields = Vec::new();
        while self.next < self.tokens.len() {
            if self.take_if("}") {
                break;
            }
            fields.push(Arc::new(self.field(depth)?));
        }
        Ok(fields)
    }

    fn field(&mut self, depth: usize) -> Result<Type> {
        let repetition = self
            .take()
            .ok_or_else(|| general("Expected repetition, found None".to_owned()))?
            .to_uppercase();
        let repetition = repetition
            .parse::<Repetition>()
            .map_err(|_| general(format!("Invalid parquet repetition {repetition}")))?;
        match self.take() {
            Some(t) if t.eq_ignore_ascii_case("group") => self.group(repetition, depth),
            Some(t) => {
                let upper = t.to_uppercase();
                let physical = upper
                    .parse::<PhysicalType>()
                    .map_err(|_| general(format!("Invalid parquet type {upper}")))?;
                self.primitive(repetition, physical)
            }
            None => Err(general(
                "Invalid type, could not extract next token".to_owned(),
            )),
        }
    }

    /// The annotation's name: a logical type if it names one, else a
    /// converted type.
    fn annotation_name(&mut self) -> Result<(Option<LogicalType>, ConvertedType)> {
        let token = self
            .take()
            .ok_or_else(|| general("Expected logical or converted type, found None".to_owned()))?;
        let upper = token.to_uppercase();
        if let Ok(logical) = upper.parse::<LogicalType>() {
            let converted = logical.converted_type();
            return Ok((Some(logical), converted));
        }
        match upper.parse::<ConvertedType>() {
            Ok(converted) => Ok((None, converted)),
            Err(_) => Err(general(format!("Invalid parquet converted type {upper}"))),
        }
    }

    /// `= id`, if present. As in arrow-rs, an id that is not a number is
    /// no id.
    fn id(&mut self) -> Option<i32> {
        if self.take_if("=") {
            self.take().and_then(|v| v.parse::<i32>().ok())
        } else {
            None
        }
    }

    fn group(&mut self, repetition: Repetition, depth: usize) -> Result<Type> {
        let name = self.name()?;
        let (logical, converted) = if self.take_if("(") {
            let annotation = self.annotation_name()?;
            self.expect(")")?;
            annotation
        } else {
            (None, ConvertedType::None)
        };
        let id = self.id();
        let fields = self.fields(depth + 1)?;
        Type::group_type_builder(name)
            .with_repetition(repetition)
            .with_logical_type(logical)
            .with_converted_type(converted)
            .with_fields(fields)
            .with_id(id)
            .build()
    }

    fn int(&mut self, missing: &str, bad: &str) -> Result<i32> {
        self.take()
            .ok_or_else(|| general(missing.to_owned()))?
            .parse::<i32>()
            .map_err(|_| general(bad.to_owned()))
    }

    fn bool(&mut self, missing: &str, bad: &str) -> Result<bool> {
        self.take()
            .ok_or_else(|| general(missing.to_owned()))?
            .to_lowercase()
            .parse::<bool>()
            .map_err(|_| general(bad.to_owned()))
    }

    fn unit(&mut self, bad: &str) -> Result<TimeUnit> {
        let token = self
            .take()
            .ok_or_else(|| general("Invalid timeunit found".to_owned()))?;
        match token.to_uppercase().as_str() {
            "MILLIS" => Ok(TimeUnit::Millis),
            "MICROS" => Ok(TimeUnit::Micros),
            "NANOS" => Ok(TimeUnit::Nanos),
            _ => Err(general(bad.to_owned())),
        }
    }

    /// `(unit, utc)` after `TIME` or `TIMESTAMP`; `None` when the
    /// parameters stop after the unit (the defaults then stand).
    fn time_params(&mut self, what: &str) -> Result<Option<(TimeUnit, bool)>> {
        let unit = self.unit(&format!("Failed to parse timeunit for {what} type"))?;
        if self.take_if(",") {
            let utc = self.bool(
                "Invalid boolean found",
                &format!("Failed to parse timezone info for {what} type"),
            )?;
            self.expect(")")?;
            Ok(Some((unit, utc)))
        } else {
            Ok(None)
        }
    }

    // The probes consume tokens; kept out of match guards so that what is
    // consumed when reads in order.
    #[allow(clippy::collapsible_match)]
    fn primitive(&mut self, repetition: Repetition, physical: PhysicalType) -> Result<Type> {
        let mut length = -1;
        if physical == PhysicalType::FixedLenByteArray {
            self.expect("(")?;
            length = self.int(
                "Expected length for FIXED_LEN_BYTE_ARRAY, found None",
                "Failed to parse length for FIXED_LEN_BYTE_ARRAY",
            )?;
            self.expect(")")?;
        }
        let name = self.name()?;
        let (mut logical, mut converted, mut precision, mut scale) =
            (None, ConvertedType::None, -1, -1);
        if self.take_if("(") {
            (logical, converted) = self.annotation_name()?;
            match &logical {
                Some(LogicalType::Decimal(_)) => {
                    // As in arrow-rs, the token after the name is consumed
                    // whatever it is.
                    if self.take() == Some("(") {
                        precision = self.int(
                            "Expected precision, found None",
                            "Failed to parse precision for DECIMAL type",
                        )?;
                        if self.take() == Some(",") {
                            scale = self.int(
                                "Expected scale, found None",
                                "Failed to parse scale for DECIMAL type",
                            )?;
                            self.expect(")")?;
                        } else {
                            scale = 0;
                        }
                        logical = Some(LogicalType::decimal(scale, precision));
                    }
                }
                Some(LogicalType::Time(_)) => {
                    if self.take() == Some("(")
                        && let Some((unit, utc)) = self.time_params("TIME")?
                    {
                        logical = Some(LogicalType::time(utc, unit));
                        converted = ConvertedType::from(logical.clone());
                    }
                }
                Some(LogicalType::Timestamp(_)) => {
                    if self.take() == Some("(")
                        && let Some((unit, utc)) = self.time_params("TIMESTAMP")?
                    {
                        logical = Some(LogicalType::timestamp(utc, unit));
                        converted = ConvertedType::from(logical.clone());
                    }
                }
                Some(LogicalType::Integer(_)) => {
                    if self.take() == Some("(") {
                        let bits = self.int(
                            "Invalid bit_width found",
                            "Failed to parse bit_width for INTEGER type",
                        )?;
                        // Taken modulo 256, as arrow-rs takes it (a width
                        // past i8 then fails the checks below, or not).
                        let bit_width = bits as i8;
                        match physical {
                            PhysicalType::Int32 if matches!(bit_width, 8 | 16 | 32) => {}
                            PhysicalType::Int32 => {
                                return Err(general(format!(
                                    "Incorrect bit width {bit_width} for INT32"
                                )));
                            }
                            PhysicalType::Int64 if bit_width == 64 => {}
                            PhysicalType::Int64 => {
                                return Err(general(format!(
                                    "Incorrect bit width {bit_width} for INT64"
                                )));
                            }
                            other => {
                                return Err(general(format!(
                                    "Logical type Integer cannot be used with physical type {other}"
                                )));
                            }
                        }
                        if self.take_if(",") {
                            let signed = self.bool(
                                "Invalid boolean found",
                                "Failed to parse is_signed for INTEGER type",
                            )?;
                            self.expect(")")?;
                            logical = Some(LogicalType::integer(bit_width, signed));
                            converted = ConvertedType::from(logical.clone());
                        }
                    }
                }
                Some(_) => {}
                None if converted == ConvertedType::Decimal => {
                    if self.take_if("(") {
                        precision = self.int(
                            "Expected precision, found None",
                            "Failed to parse precision for DECIMAL type",
                        )?;
                        scale = if self.take_if(",") {
                            self.int(
                                "Expected scale, found None",
                                "Failed to parse scale for DECIMAL type",
                            )?
                        } else {
                            0
                        };
                        self.expect(")")?;
                    }
                }
                None => {}
            }
            self.expect(")")?;
        }
        let id = self.id();
        self.expect(";")?;
        Type::primitive_type_builder(name, physical)
            .with_repetition(repetition)
            .with_logical_type(logical)
            .with_converted_type(converted)
            .with_length(length)
            .with_precision(precision)
            .with_scale(scale)
            .with_id(id)
            .build()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_around_delimiters() {
        assert_eq!(
            tokenize(" message m{a(b,c)=1;} "),
            [
                "message", "m", "{", "a", "(", "b", ",", "c", ")", "=", "1", ";", "}"
            ]
        );
        assert!(tokenize("   ").is_empty());
    }
}
