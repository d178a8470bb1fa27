//! `GEOMETRY` and `GEOGRAPHY` columns as GeoArrow fields (feature
//! `geospatial`, as arrow-rs's): a `Binary` field of WKB values with the
//! extension type `geoarrow.wkb`, whose metadata (JSON) carries the
//! coordinate reference system and, for `GEOGRAPHY`, the edges.
//!
//! - Read: a `GEOMETRY` leaf gets `{"crs":"OGC:CRS84"}` when its CRS is
//!   omitted (the format's default), no `crs` for `srid:0` (unset), and its
//!   CRS string otherwise; a `GEOGRAPHY` leaf also gets `"edges"`, its
//!   edge interpolation in lower case (`spherical` when omitted).
//! - Write: a `Binary`, `LargeBinary` or `BinaryView` field with that
//!   extension type is a `GEOGRAPHY` column when its metadata names
//!   edges, a `GEOMETRY` column otherwise; a longitude/latitude CRS
//!   (`OGC:CRS84`, `EPSG:4326`) is written as the default (omitted), no
//!   CRS as `srid:0`, a string as itself and a PROJJSON object as its
//!   JSON text. Metadata that is not a JSON object leaves the field plain
//!   binary.
//!
//! Without the feature both directions are plain `Binary`, as with
//! arrow-rs's default features.

use std::collections::HashMap;

use arrow_schema::Field;
use strata_format::metadata::LogicalType;

/// The extension type name of GeoArrow's WKB arrays.
pub const GEOARROW_WKB: &str = "geoarrow.wkb";

/// The extension metadata of a `GEOMETRY` or `GEOGRAPHY` leaf; `None` for
/// other logical types, or without the feature.
#[cfg_attr(not(feature = "geospatial"), allow(unused_variables))]
pub(crate) fn extension_metadata(logical: Option<&LogicalType>) -> Option<HashMap<String, String>> {
    #[cfg(feature = "geospatial")]
    {
        use serde_json::{Map, Value};
        let crs_value = |crs: Option<&str>| match crs {
            None => Some("OGC:CRS84".to_string()),
            Some("srid:0") => None,
            Some(crs) => Some(crs.to_string()),
        };
        let mut json = Map::new();
        match logical? {
            LogicalType::Geometry(g) => {
                if let Some(crs) = crs_value(g.crs.as_deref()) {
                    json.insert("crs".into(), Value::String(crs));
                }
            }
            LogicalType::Geography(g) => {
                if let Some(crs) = crs_value(g.crs.as_deref()) {
                    json.insert("crs".into(), Value::String(crs));
                }
                let edges = g
                    .algorithm
                    .unwrap_or(strata_format::metadata::EdgeInterpolationAlgorithm::Spherical)
                    .to_string()
                    .to_lowercase();
                json.insert("edges".into(), Value::String(edges));
            }
            _ => return None,
        }
        Some(HashMap::from([
            (
                arrow_schema::extension::EXTENSION_TYPE_NAME_KEY.to_string(),
                GEOARROW_WKB.to_string(),
            ),
            (
                arrow_schema::extension::EXTENSION_TYPE_METADATA_KEY.to_string(),
                Value::Object(json).to_string(),
            ),
        ]))
    }
    #[cfg(not(feature = "geospatial"))]
    None
}

/// The logical type a binary field is written with: `GEOMETRY` or
/// `GEOGRAPHY` for a `geoarrow.wkb` field; `None` otherwise, or without
/// the feature.
#[cfg_attr(not(feature = "geospatial"), allow(unused_variables))]
pub(crate) fn logical_type(field: &Field) -> Option<LogicalType> {
    #[cfg(feature = "geospatial")]
    {
        use serde_json::Value;
        use strata_format::metadata::{
            EdgeInterpolationAlgorithm as Edges, GeographyType, GeometryType,
        };
        if field.extension_type_name() != Some(GEOARROW_WKB) {
            return None;
        }
        let text = field.extension_type_metadata().unwrap_or("{}");
        let text = if text.is_empty() { "{}" } else { text };
        let Ok(Value::Object(json)) = serde_json::from_str::<Value>(text) else {
            return None;
        };
        let crs = match json.get("crs") {
            None | Some(Value::Null) => Some("srid:0".to_string()),
            Some(Value::String(s)) if matches!(s.as_str(), "OGC:CRS84" | "EPSG:4326") => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => Some(other.to_string()),
        };
        Some(match json.get("edges").and_then(Value::as_str) {
            None => LogicalType::Geometry(GeometryType { crs }),
            Some(edges) => {
                let algorithm = match edges {
                    "spherical" => None,
                    "vincenty" => Some(Edges::Vincenty),
                    "thomas" => Some(Edges::Thomas),
                    "andoyer" => Some(Edges::Andoyer),
                    "karney" => Some(Edges::Karney),
                    _ => return None,
                };
                LogicalType::Geography(GeographyType { crs, algorithm })
            }
        })
    }
    #[cfg(not(feature = "geospatial"))]
    None
}

#[cfg(all(test, feature = "geospatial"))]
mod tests {
    use super::*;
    use arrow_schema::DataType;
    use strata_format::metadata::{EdgeInterpolationAlgorithm, GeographyType, GeometryType};

    fn field(metadata: &str) -> Field {
        Field::new("g", DataType::Binary, true).with_metadata(HashMap::from([
            (
                arrow_schema::extension::EXTENSION_TYPE_NAME_KEY.to_string(),
                GEOARROW_WKB.to_string(),
            ),
            (
                arrow_schema::extension::EXTENSION_TYPE_METADATA_KEY.to_string(),
                metadata.to_string(),
            ),
        ]))
    }

    #[test]
    fn logical_types_round_trip_through_the_metadata() {
        let types = [
            LogicalType::Geometry(GeometryType { crs: None }),
            LogicalType::Geometry(GeometryType {
                crs: Some("srid:5070".into()),
            }),
            LogicalType::Geometry(GeometryType {
                crs: Some("srid:0".into()),
            }),
            LogicalType::Geography(GeographyType {
                crs: None,
                algorithm: None,
            }),
            LogicalType::Geography(GeographyType {
                crs: Some("projjson:key".into()),
                algorithm: Some(EdgeInterpolationAlgorithm::Karney),
            }),
        ];
        for logical in types {
            let md = extension_metadata(Some(&logical)).unwrap();
            let field = Field::new("g", DataType::Binary, true).with_metadata(md);
            assert_eq!(self::logical_type(&field), Some(logical));
        }
        assert_eq!(extension_metadata(Some(&LogicalType::String)), None);
    }

    #[test]
    fn metadata_as_geoarrow_writers_give_it() {
        assert_eq!(
            logical_type(&field(r#"{"crs":"EPSG:4326"}"#)),
            Some(LogicalType::Geometry(GeometryType { crs: None }))
        );
        assert_eq!(
            logical_type(&field("")),
            Some(LogicalType::Geometry(GeometryType {
                crs: Some("srid:0".into())
            }))
        );
        let projjson = r#"{"crs":{"type":"GeographicCRS"},"edges":"spherical"}"#;
        assert_eq!(
            logical_type(&field(projjson)),
            Some(LogicalType::Geography(GeographyType {
                crs: Some(r#"{"type":"GeographicCRS"}"#.into()),
                algorithm: None,
            }))
        );
        assert_eq!(logical_type(&field("[1]")), None);
        assert_eq!(logical_type(&field(r#"{"edges":"planar?"}"#)), None);
        assert_eq!(logical_type(&Field::new("b", DataType::Binary, true)), None);
    }
}
