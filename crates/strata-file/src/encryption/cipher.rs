//! The ciphers of Parquet modular encryption: AES-GCM for every module,
//! from `ring` (what arrow-rs uses: its AES-GCM runs the stitched AES-NI,
//! VAES and carry-less multiplication kernels, several times the
//! throughput of a pure-Rust GCM), and AES-CTR for the bodies of pages
//! under `AES_GCM_CTR_V1`, from RustCrypto's `aes` and `ctr` (`ring` has
//! no raw CTR). No cipher code is written here. Keys are 16 or 32 bytes
//! (AES-128, AES-256), as in arrow-rs; the format allows AES-192 too,
//! which `ring` does not offer.
//!
//! A module on disk is its length (4 bytes, little-endian, counting what
//! follows) and then:
//!
//! ```text
//! GCM: nonce (12) | ciphertext | tag (16)      plaintext = length - 28
//! CTR: nonce (12) | ciphertext                 plaintext = length - 12
//! ```
//!
//! A CTR module's counter block is its nonce and a 32-bit big-endian
//! counter that starts at 1.

use aes::{Aes128, Aes256};
use ctr::cipher::{KeyIvInit, StreamCipher};
use ring::aead::{AES_128_GCM, AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};

use crate::error::{FileError, Result};

/// Bytes of a module's length prefix.
pub(crate) const LENGTH_LEN: usize = 4;
/// Bytes of a nonce.
pub(crate) const NONCE_LEN: usize = 12;
/// Bytes of a GCM tag.
pub(crate) const TAG_LEN: usize = 16;

/// One key's ciphers: GCM (built once) and the key for CTR.
pub(crate) struct ModuleCipher {
    gcm: LessSafeKey,
    key: Vec<u8>,
}

impl std::fmt::Debug for ModuleCipher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key.
        write!(f, "ModuleCipher {{ {} bits }}", self.key.len() * 8)
    }
}

fn decryption(what: &str) -> FileError {
    FileError::Decryption(format!(
        "{what} did not authenticate: the key or AAD is wrong, or the bytes were changed"
    ))
}

impl ModuleCipher {
    /// The ciphers of `key` (16 or 32 bytes).
    pub(crate) fn new(key: &[u8]) -> Result<Self> {
        let bad = || {
            FileError::Decryption(format!(
                "a key of {} bytes: AES keys are 16 or 32 bytes (AES-128, AES-256)",
                key.len()
            ))
        };
        let algorithm = match key.len() {
            16 => &AES_128_GCM,
            32 => &AES_256_GCM,
            _ => return Err(bad()),
        };
        let gcm = LessSafeKey::new(UnboundKey::new(algorithm, key).map_err(|_| bad())?);
        Ok(Self {
            gcm,
            key: key.to_vec(),
        })
    }

    /// The plaintext of the GCM module `module` (after its length prefix:
    /// nonce, ciphertext, tag) under `aad`; `what` names it in errors.
    pub(crate) fn decrypt_gcm(&self, module: &[u8], aad: &[u8], what: &str) -> Result<Vec<u8>> {
        let (nonce, sealed) = module
            .split_first_chunk::<NONCE_LEN>()
            .filter(|(_, sealed)| sealed.len() >= TAG_LEN)
            .ok_or_else(|| {
                FileError::Decryption(format!(
                    "{what}: a GCM module of {} bytes is shorter than its nonce and tag",
                    module.len()
                ))
            })?;
        // Sized by the bytes present, never by a declared length.
        let mut buf = sealed.to_vec();
        let plaintext_len = self
            .gcm
            .open_in_place(
                Nonce::assume_unique_for_key(*nonce),
                Aad::from(aad),
                &mut buf,
            )
            .map_err(|_| decryption(what))?
            .len();
        // A module that fails leaves nothing of its plaintext behind (the
        // buffer is dropped above); one that authenticates loses its tag.
        buf.truncate(plaintext_len);
        Ok(buf)
    }

    /// The GCM module of `plaintext` under `nonce` and `aad`: its length,
    /// the nonce, the ciphertext and the tag.
    pub(crate) fn encrypt_gcm(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        plaintext: &[u8],
    ) -> Result<Vec<u8>> {
        let (mut module, start) = module_frame(nonce, plaintext, TAG_LEN)?;
        let tag = self
            .gcm
            .seal_in_place_separate_tag(
                Nonce::assume_unique_for_key(*nonce),
                Aad::from(aad),
                &mut module[start..],
            )
            .map_err(|_| FileError::InvalidArgument("a module too long to encrypt".into()))?;
        module.extend_from_slice(tag.as_ref());
        Ok(module)
    }

    /// The GCM tag of `plaintext` under `nonce` and `aad`: how a plaintext
    /// footer's signature is checked (the footer is encrypted again with
    /// the nonce stored beside it, and the tags compared).
    pub(crate) fn gcm_tag(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        plaintext: &[u8],
    ) -> Result<[u8; TAG_LEN]> {
        let mut buf = plaintext.to_vec();
        let tag = self
            .gcm
            .seal_in_place_separate_tag(
                Nonce::assume_unique_for_key(*nonce),
                Aad::from(aad),
                &mut buf,
            )
            .map_err(|_| FileError::Decryption("a footer too long to sign".into()))?;
        let mut out = [0u8; TAG_LEN];
        out.copy_from_slice(tag.as_ref());
        Ok(out)
    }

    /// The CTR module of `plaintext` under `nonce`: its length, the nonce
    /// and the ciphertext (CTR is its own inverse).
    pub(crate) fn encrypt_ctr(&self, nonce: &[u8; NONCE_LEN], plaintext: &[u8]) -> Result<Vec<u8>> {
        let (mut module, start) = module_frame(nonce, plaintext, 0)?;
        // Encrypted where it lies: no copy of the page but the one above.
        self.apply_ctr(nonce, &mut module[start..], "a page")?;
        Ok(module)
    }

    /// The plaintext of the CTR module `module` (after its length prefix:
    /// nonce, ciphertext). CTR has no tag: a changed byte is not detected
    /// here, only by what fails to decode after it.
    pub(crate) fn decrypt_ctr(&self, module: &[u8], what: &str) -> Result<Vec<u8>> {
        let (nonce, ciphertext) = module.split_first_chunk::<NONCE_LEN>().ok_or_else(|| {
            FileError::Decryption(format!(
                "{what}: a CTR module of {} bytes is shorter than its nonce",
                module.len()
            ))
        })?;
        let mut buf = ciphertext.to_vec();
        self.apply_ctr(nonce, &mut buf, what)?;
        Ok(buf)
    }

    /// XOR `buf` with the keystream of `nonce` (counter from 1): CTR
    /// encryption and decryption alike.
    fn apply_ctr(&self, nonce: &[u8; NONCE_LEN], buf: &mut [u8], what: &str) -> Result<()> {
        let mut iv = [0u8; 16];
        iv[..NONCE_LEN].copy_from_slice(nonce);
        iv[15] = 1;
        let bad = |_| FileError::Decryption(format!("{what}: the CTR key or IV"));
        match self.key.len() {
            16 => ctr::Ctr32BE::<Aes128>::new_from_slices(&self.key, &iv)
                .map_err(bad)?
                .apply_keystream(buf),
            _ => ctr::Ctr32BE::<Aes256>::new_from_slices(&self.key, &iv)
                .map_err(bad)?
                .apply_keystream(buf),
        }
        Ok(())
    }
}

/// The module at the start of `bytes`: what follows its 4-byte length, and
/// the bytes it takes with the length. Fails if the length runs past
/// `bytes` (nothing is sized by it).
pub(crate) fn split_module<'a>(bytes: &'a [u8], what: &str) -> Result<(&'a [u8], usize)> {
    let (len, rest) = bytes.split_first_chunk::<LENGTH_LEN>().ok_or_else(|| {
        FileError::Decryption(format!(
            "{what}: {} bytes cannot hold a module length",
            bytes.len()
        ))
    })?;
    let len = u32::from_le_bytes(*len) as usize;
    let module = rest.get(..len).ok_or_else(|| {
        FileError::Decryption(format!(
            "{what}: a module of {len} bytes where {} are left",
            rest.len()
        ))
    })?;
    Ok((module, LENGTH_LEN + len))
}

/// A module's frame around `plaintext`, not yet encrypted: the length
/// (nonce, body and a tag of `tag_len` bytes to come), the nonce, then
/// the plaintext, which starts at the returned offset; room is reserved
/// for the tag.
fn module_frame(
    nonce: &[u8; NONCE_LEN],
    plaintext: &[u8],
    tag_len: usize,
) -> Result<(Vec<u8>, usize)> {
    let len = u32::try_from(NONCE_LEN + plaintext.len() + tag_len).map_err(|_| {
        FileError::InvalidArgument(format!(
            "a module of {} bytes: encrypted modules are under 4 GiB",
            plaintext.len()
        ))
    })?;
    let mut module = Vec::with_capacity(LENGTH_LEN + len as usize);
    module.extend_from_slice(&len.to_le_bytes());
    module.extend_from_slice(nonce);
    let start = module.len();
    module.extend_from_slice(plaintext);
    Ok((module, start))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CTR module's keystream is AES of its nonce followed by a 32-bit
    /// big-endian counter from 1, then 2, ...: checked block by block
    /// against the block cipher itself.
    #[test]
    fn ctr_keystream_is_the_nonce_and_a_counter_from_one() {
        use aes::cipher::{BlockCipherEncrypt, KeyInit as _};
        let key: Vec<u8> = (1..=16).collect();
        let cipher = ModuleCipher::new(&key).unwrap();
        let nonce = [7u8; NONCE_LEN];
        let mut module = nonce.to_vec();
        module.extend_from_slice(&[0u8; 40]);
        let keystream = cipher.decrypt_ctr(&module, "test").unwrap();
        assert_eq!(keystream.len(), 40);
        let aes = Aes128::new_from_slice(&key).unwrap();
        for (i, got) in keystream.chunks(16).enumerate() {
            let mut block = [0u8; 16];
            block[..NONCE_LEN].copy_from_slice(&nonce);
            block[12..].copy_from_slice(&(i as u32 + 1).to_be_bytes());
            let mut b = block.into();
            aes.encrypt_block(&mut b);
            let want: [u8; 16] = b.into();
            assert_eq!(got, &want[..got.len()], "block {i}");
        }
        // Decrypting twice gives back what went in.
        let text: Vec<u8> = (0..40).collect();
        let mut once = nonce.to_vec();
        once.extend_from_slice(&text);
        let mut twice = nonce.to_vec();
        twice.extend_from_slice(&cipher.decrypt_ctr(&once, "test").unwrap());
        assert_eq!(cipher.decrypt_ctr(&twice, "test").unwrap(), text);
        assert!(cipher.decrypt_ctr(&[0; 11], "test").is_err());
    }

    /// NIST's GCM test case 3 (AES-128, 60... here the 64-byte plaintext,
    /// no AAD): the ciphertext and tag ring gives are the published ones.
    #[test]
    fn gcm_matches_a_published_vector() {
        let hex = |s: &str| -> Vec<u8> {
            (0..s.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
                .collect()
        };
        let key = hex("feffe9928665731c6d6a8f9467308308");
        let nonce: [u8; NONCE_LEN] = hex("cafebabefacedbaddecaf888").try_into().unwrap();
        let plaintext = hex(
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
        );
        let want = hex(
            "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f59854d5c2af327cd64a62cf35abd2ba6fab4",
        );
        let cipher = ModuleCipher::new(&key).unwrap();
        let module = cipher.encrypt_gcm(&nonce, &[], &plaintext).unwrap();
        assert_eq!(&module[..4], &(12 + 64 + 16u32).to_le_bytes());
        assert_eq!(&module[4..16], &nonce);
        assert_eq!(&module[16..], &want[..]);
        assert_eq!(cipher.gcm_tag(&nonce, &[], &plaintext).unwrap(), want[64..]);
        assert_eq!(
            cipher.decrypt_gcm(&module[4..], &[], "m").unwrap(),
            plaintext
        );
    }

    #[test]
    fn gcm_round_trips_and_rejects_a_changed_byte_or_aad() {
        for key_len in [16, 32] {
            let key: Vec<u8> = (0..key_len as u8).collect();
            let cipher = ModuleCipher::new(&key).unwrap();
            let nonce = [3u8; NONCE_LEN];
            let plaintext = b"a footer of some bytes".to_vec();
            let framed = cipher.encrypt_gcm(&nonce, b"aad", &plaintext).unwrap();
            let module = &framed[LENGTH_LEN..];
            assert_eq!(cipher.decrypt_gcm(module, b"aad", "m").unwrap(), plaintext);
            assert!(cipher.decrypt_gcm(module, b"aaD", "m").is_err());
            for i in 0..module.len() {
                let mut changed = module.to_vec();
                changed[i] ^= 0x20;
                assert!(
                    cipher.decrypt_gcm(&changed, b"aad", "m").is_err(),
                    "byte {i}"
                );
            }
            assert!(cipher.decrypt_gcm(&module[..27], b"aad", "m").is_err());
        }
        assert!(ModuleCipher::new(&[0; 24]).is_err());
        assert!(ModuleCipher::new(&[0; 15]).is_err());
        assert!(ModuleCipher::new(&[]).is_err());
    }

    #[test]
    fn module_lengths_past_the_bytes_are_errors() {
        assert!(split_module(&[1, 0, 0], "m").is_err());
        assert!(split_module(&[5, 0, 0, 0, 1, 2], "m").is_err());
        assert!(split_module(&[0xFF, 0xFF, 0xFF, 0xFF], "m").is_err());
        let (module, taken) = split_module(&[2, 0, 0, 0, 9, 8, 7], "m").unwrap();
        assert_eq!((module, taken), (&[9u8, 8][..], 6));
    }
}
