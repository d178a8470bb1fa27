//! Geospatial statistics of `GEOMETRY` columns, computed as values are
//! written: the bounding box of every coordinate and the set of geometry
//! types (the format's `GeospatialStatistics`). `GEOGRAPHY` columns get
//! none, as parquet-cpp writes none: their edges are not straight lines
//! in x and y, so a box of the vertices need not hold the edges.
//!
//! Values are ISO well-known binary (WKB): a byte order byte (0 big
//! endian, 1 little endian), a `u32` type code (1 point, 2 linestring, 3
//! polygon, 4 multipoint, 5 multilinestring, 6 multipolygon, 7 geometry
//! collection; plus 1000 with Z, 2000 with M, 3000 with both), then the
//! coordinates: a point's one, a linestring's count and points, a
//! polygon's ring count and rings, a collection's count and whole WKB
//! geometries. The older EWKB flags (`0x80000000` Z, `0x40000000` M) are
//! read as the same dimensions (and an EWKB SRID is passed over).
//!
//! - The types are the distinct codes of the values, ascending (nested
//!   geometries do not add theirs).
//! - The box covers every coordinate's x and y, z over the values with
//!   Z, m over those with M; NaN coordinates are left out (`POINT EMPTY`
//!   is a point of NaNs), so the box never holds a NaN. A chunk without a
//!   coordinate has no box.
//! - A value that is not valid WKB (cut short, an unknown type, nesting
//!   deeper than [`MAX_DEPTH`], trailing bytes) makes the chunk's
//!   statistics unknown: none are written, and the data is written as
//!   given. Counts are checked against the bytes left before anything is
//!   read, so a hostile count cannot make the walk long or allocate.
//!
//! ```
//! use strata_file::geospatial::GeospatialAccumulator;
//!
//! // POINT (1 2) and LINESTRING (3 4, -5 6), little endian.
//! let mut point = vec![1u8, 1, 0, 0, 0];
//! point.extend(1f64.to_le_bytes());
//! point.extend(2f64.to_le_bytes());
//! let mut line = vec![1u8, 2, 0, 0, 0, 2, 0, 0, 0];
//! for v in [3f64, 4.0, -5.0, 6.0] {
//!     line.extend(v.to_le_bytes());
//! }
//! let mut acc = GeospatialAccumulator::new();
//! acc.update(&point);
//! acc.update(&line);
//! let stats = acc.finish().unwrap();
//! assert_eq!(stats.geospatial_types(), Some(&vec![1, 2]));
//! let bbox = stats.bounding_box().unwrap();
//! assert_eq!((bbox.get_xmin(), bbox.get_xmax()), (-5.0, 3.0));
//! assert_eq!((bbox.get_ymin(), bbox.get_ymax()), (2.0, 6.0));
//! assert!(!bbox.is_z_valid());
//!
//! // One value that is not WKB: no statistics for the chunk.
//! acc.update(&[1, 99, 0, 0, 0]);
//! assert!(acc.finish().is_none());
//! ```

use strata_format::metadata::{BoundingBox, GeospatialStatistics};

/// Deepest nesting of collections read (a collection in a collection
/// ... ); deeper values are invalid.
pub const MAX_DEPTH: usize = 32;

/// A range of one dimension: `(min, max)`, empty while `min > max`.
#[derive(Debug, Clone, Copy)]
struct Range(f64, f64);

impl Range {
    const EMPTY: Self = Self(f64::INFINITY, f64::NEG_INFINITY);

    fn add(&mut self, v: f64) {
        // NaN fails both comparisons: left out.
        if v < self.0 {
            self.0 = v;
        }
        if v > self.1 {
            self.1 = v;
        }
    }

    fn merge(&mut self, other: Range) {
        if other.0 <= other.1 {
            self.add(other.0);
            self.add(other.1);
        }
    }

    fn get(self) -> Option<(f64, f64)> {
        (self.0 <= self.1).then_some((self.0, self.1))
    }
}

/// Geospatial statistics gathered value by value (one column chunk).
#[derive(Debug, Clone)]
pub struct GeospatialAccumulator {
    /// Set once a value was not valid WKB.
    invalid: bool,
    x: Range,
    y: Range,
    z: Range,
    m: Range,
    /// Type codes seen, as bits: code `c` of the 28 (7 types times 4
    /// dimension sets) is bit `(c / 1000) * 7 + (c % 1000 - 1)`.
    types: u32,
}

impl Default for GeospatialAccumulator {
    fn default() -> Self {
        Self::new()
    }
}

impl GeospatialAccumulator {
    /// An empty accumulator.
    pub fn new() -> Self {
        Self {
            invalid: false,
            x: Range::EMPTY,
            y: Range::EMPTY,
            z: Range::EMPTY,
            m: Range::EMPTY,
            types: 0,
        }
    }

    /// Fold in one (non-null) WKB value.
    pub fn update(&mut self, wkb: &[u8]) {
        if self.invalid {
            return;
        }
        let mut walk = Walk {
            bytes: wkb,
            at: 0,
            x: Range::EMPTY,
            y: Range::EMPTY,
            z: Range::EMPTY,
            m: Range::EMPTY,
        };
        match walk.geometry(0) {
            Some(code) if walk.at == wkb.len() => {
                self.types |= 1 << type_bit(code);
                self.x.merge(walk.x);
                self.y.merge(walk.y);
                self.z.merge(walk.z);
                self.m.merge(walk.m);
            }
            _ => self.invalid = true,
        }
    }

    /// Fold in another chunk's accumulator.
    pub fn merge(&mut self, other: &Self) {
        self.invalid |= other.invalid;
        self.types |= other.types;
        self.x.merge(other.x);
        self.y.merge(other.y);
        self.z.merge(other.z);
        self.m.merge(other.m);
    }

    /// The statistics, or `None` when a value was not valid WKB.
    pub fn finish(&self) -> Option<GeospatialStatistics> {
        if self.invalid {
            return None;
        }
        let bbox = match (self.x.get(), self.y.get()) {
            (Some((xmin, xmax)), Some((ymin, ymax))) => {
                let mut bbox = BoundingBox::new(xmin, xmax, ymin, ymax);
                if let Some((zmin, zmax)) = self.z.get() {
                    bbox = bbox.with_zrange(zmin, zmax);
                }
                if let Some((mmin, mmax)) = self.m.get() {
                    bbox = bbox.with_mrange(mmin, mmax);
                }
                Some(bbox)
            }
            _ => None,
        };
        let types: Vec<i32> = (0..28)
            .filter(|bit| self.types & (1 << bit) != 0)
            .map(|bit| (bit / 7) * 1000 + bit % 7 + 1)
            .collect();
        Some(GeospatialStatistics::new(bbox, Some(types)))
    }
}

/// The bit of an ISO type code (`1..=7` plus 0, 1000, 2000 or 3000).
fn type_bit(code: u32) -> u32 {
    (code / 1000) * 7 + (code % 1000 - 1)
}

/// A walk over one WKB value, gathering its coordinates' ranges.
struct Walk<'a> {
    bytes: &'a [u8],
    at: usize,
    x: Range,
    y: Range,
    z: Range,
    m: Range,
}

impl Walk<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let end = self.at.checked_add(N)?;
        let out = self.bytes.get(self.at..end)?.try_into().ok()?;
        self.at = end;
        Some(out)
    }

    /// The next `N` bytes as little endian: reversed when the value is big
    /// endian.
    fn word<const N: usize>(&mut self, little: bool) -> Option<[u8; N]> {
        let mut b = self.take::<N>()?;
        if !little {
            b.reverse();
        }
        Some(b)
    }

    fn u32(&mut self, little: bool) -> Option<u32> {
        self.word(little).map(u32::from_le_bytes)
    }

    fn f64(&mut self, little: bool) -> Option<f64> {
        self.word(little).map(f64::from_le_bytes)
    }

    /// A count of items of at least `min_bytes` each, refused when the
    /// bytes left cannot hold them.
    fn count(&mut self, little: bool, min_bytes: usize) -> Option<u32> {
        let n = self.u32(little)?;
        let left = self.bytes.len() - self.at;
        (n as usize).checked_mul(min_bytes)?.le(&left).then_some(n)
    }

    /// `n` coordinates of `(has_z, has_m)`.
    fn points(&mut self, little: bool, n: u32, (has_z, has_m): (bool, bool)) -> Option<()> {
        for _ in 0..n {
            let x = self.f64(little)?;
            let y = self.f64(little)?;
            self.x.add(x);
            self.y.add(y);
            if has_z {
                let z = self.f64(little)?;
                self.z.add(z);
            }
            if has_m {
                let m = self.f64(little)?;
                self.m.add(m);
            }
        }
        Some(())
    }

    /// One geometry (header and body) at nesting `depth`; its ISO type
    /// code.
    fn geometry(&mut self, depth: usize) -> Option<u32> {
        if depth > MAX_DEPTH {
            return None;
        }
        let little = match self.take::<1>()?[0] {
            0 => false,
            1 => true,
            _ => return None,
        };
        let raw = self.u32(little)?;
        // EWKB flags, or ISO's thousands.
        let (base, has_z, has_m) = if raw & 0xE000_0000 != 0 {
            (
                raw & 0x0FFF_FFFF,
                raw & 0x8000_0000 != 0,
                raw & 0x4000_0000 != 0,
            )
        } else {
            let dims = raw / 1000;
            (raw % 1000, dims == 1 || dims == 3, dims == 2 || dims == 3)
        };
        if raw & 0xE000_0000 == 0 && raw / 1000 > 3 || !(1..=7).contains(&base) {
            return None;
        }
        if raw & 0x2000_0000 != 0 {
            // An EWKB SRID, which says nothing of the coordinates.
            self.u32(little)?;
        }
        let dims = (has_z, has_m);
        let width = 8 * (2 + usize::from(has_z) + usize::from(has_m));
        match base {
            1 => self.points(little, 1, dims)?,
            2 => {
                let n = self.count(little, width)?;
                self.points(little, n, dims)?;
            }
            3 => {
                let rings = self.count(little, 4)?;
                for _ in 0..rings {
                    let n = self.count(little, width)?;
                    self.points(little, n, dims)?;
                }
            }
            _ => {
                // A header of 5 bytes at least per member.
                let n = self.count(little, 5)?;
                for _ in 0..n {
                    let member = self.geometry(depth + 1)?;
                    let member_base = member % 1000;
                    let allowed = match base {
                        4 => member_base == 1,
                        5 => member_base == 2,
                        6 => member_base == 3,
                        _ => true,
                    };
                    if !allowed {
                        return None;
                    }
                }
            }
        }
        let code = base + 1000 * (u32::from(has_z) + 2 * u32::from(has_m));
        Some(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(little: bool, code: u32) -> Vec<u8> {
        let mut out = vec![u8::from(little)];
        out.extend(if little {
            code.to_le_bytes()
        } else {
            code.to_be_bytes()
        });
        out
    }

    fn coords(little: bool, values: &[f64]) -> Vec<u8> {
        values
            .iter()
            .flat_map(|v| {
                if little {
                    v.to_le_bytes()
                } else {
                    v.to_be_bytes()
                }
            })
            .collect()
    }

    #[test]
    fn dimensions_orders_and_nested_collections() {
        let mut acc = GeospatialAccumulator::new();
        // POINT ZM (1 2 3 4), big endian.
        let mut p = header(false, 3001);
        p.extend(coords(false, &[1.0, 2.0, 3.0, 4.0]));
        acc.update(&p);
        // POLYGON M ((0 0 9, 5 0 9, 0 0 9)) as EWKB with the M flag.
        let mut poly = header(true, 0x4000_0003);
        poly.extend(1u32.to_le_bytes());
        poly.extend(3u32.to_le_bytes());
        poly.extend(coords(true, &[0.0, 0.0, 9.0, 5.0, 0.0, 9.0, 0.0, 0.0, 9.0]));
        acc.update(&poly);
        // GEOMETRYCOLLECTION (POINT EMPTY, MULTIPOINT ((-7 1))).
        let mut gc = header(true, 7);
        gc.extend(2u32.to_le_bytes());
        gc.extend(header(true, 1));
        gc.extend(coords(true, &[f64::NAN, f64::NAN]));
        gc.extend(header(true, 4));
        gc.extend(1u32.to_le_bytes());
        gc.extend(header(true, 1));
        gc.extend(coords(true, &[-7.0, 1.0]));
        acc.update(&gc);
        let stats = acc.finish().unwrap();
        assert_eq!(stats.geospatial_types(), Some(&vec![7, 2003, 3001]));
        let b = stats.bounding_box().unwrap();
        assert_eq!(
            (b.get_xmin(), b.get_xmax(), b.get_ymin(), b.get_ymax()),
            (-7.0, 5.0, 0.0, 2.0)
        );
        assert_eq!((b.get_zmin(), b.get_zmax()), (Some(3.0), Some(3.0)));
        assert_eq!((b.get_mmin(), b.get_mmax()), (Some(4.0), Some(9.0)));
    }

    #[test]
    fn empty_values_have_types_but_no_box() {
        let mut acc = GeospatialAccumulator::new();
        let mut empty = header(true, 2);
        empty.extend(0u32.to_le_bytes());
        acc.update(&empty);
        let stats = acc.finish().unwrap();
        assert_eq!(
            (stats.geospatial_types(), stats.bounding_box()),
            (Some(&vec![2]), None)
        );
    }

    proptest::proptest! {
        /// Any bytes, and any one byte of a valid value changed, give
        /// statistics or none, never a panic; a box never holds NaN.
        #[test]
        fn hostile_bytes_never_panic(
            noise in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..80),
            at in 0usize..200,
            byte in proptest::prelude::any::<u8>(),
        ) {
            let mut gc = header(true, 7);
            gc.extend(2u32.to_le_bytes());
            gc.extend(header(false, 1002));
            gc.extend(2u32.to_be_bytes());
            gc.extend(coords(false, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]));
            gc.extend(header(true, 3));
            gc.extend(1u32.to_le_bytes());
            gc.extend(1u32.to_le_bytes());
            gc.extend(coords(true, &[7.0, 8.0]));
            let mut mutated = gc.clone();
            let i = at % mutated.len();
            mutated[i] = byte;
            for value in [&noise[..], &mutated[..], &gc[..]] {
                let mut acc = GeospatialAccumulator::new();
                acc.update(value);
                if let Some(b) = acc.finish().and_then(|s| s.bounding_box().cloned()) {
                    proptest::prop_assert!(
                        [b.xmin, b.xmax, b.ymin, b.ymax].iter().all(|v| !v.is_nan())
                    );
                }
            }
        }
    }

    #[test]
    fn bad_values_make_the_statistics_unknown() {
        let mut point = header(true, 1);
        point.extend(coords(true, &[1.0, 2.0]));
        let mut deep = Vec::new();
        for _ in 0..=MAX_DEPTH + 1 {
            deep.extend(header(true, 7));
            deep.extend(1u32.to_le_bytes());
        }
        deep.extend(&point);
        let mut huge = header(true, 2);
        huge.extend(u32::MAX.to_le_bytes());
        let mut trailing = point.clone();
        trailing.push(0);
        let mut wrong_member = header(true, 4);
        wrong_member.extend(1u32.to_le_bytes());
        wrong_member.extend(header(true, 2));
        wrong_member.extend(0u32.to_le_bytes());
        for bad in [
            &[][..],
            &[2, 1, 0, 0, 0],
            &point[..point.len() - 1],
            &header(true, 8)[..],
            &header(true, 4001)[..],
            &deep[..],
            &huge[..],
            &trailing[..],
            &wrong_member[..],
        ] {
            let mut acc = GeospatialAccumulator::new();
            acc.update(&point);
            acc.update(bad);
            assert!(acc.finish().is_none(), "{bad:?}");
        }
    }
}
