//! Validity bitmaps: LSB-first bit `i` of the bitmap set means slot `i` holds
//! a value (Arrow's layout). Reading, counting and walking them is
//! `strata_sink::bitmap`'s; this checks that a bitmap holds a range.

use crate::error::{EncodingError, Result};

/// Check that `bitmap` holds bits `offset .. offset + len`.
pub(crate) fn check_bitmap(bitmap: &[u8], offset: usize, len: usize) -> Result<()> {
    if len == 0 {
        return Ok(());
    }
    let needed = offset
        .checked_add(len)
        .ok_or_else(|| EncodingError::InvalidArgument("validity range overflows".into()))?;
    if needed.div_ceil(8) > bitmap.len() {
        return Err(EncodingError::InvalidArgument(format!(
            "validity bitmap of {} bytes cannot hold bits {offset}..{needed}",
            bitmap.len()
        )));
    }
    Ok(())
}

pub(crate) use strata_sink::bitmap::{SetRuns, count_set, for_each_set_bit, get_bit};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_past_the_bitmap_is_refused() {
        assert!(check_bitmap(&[0xFF], 0, 8).is_ok());
        assert!(check_bitmap(&[0xFF], 1, 8).is_err());
        assert!(check_bitmap(&[], usize::MAX, 2).is_err());
    }
}
