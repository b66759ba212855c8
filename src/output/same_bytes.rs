//! Whether the previous site holds a file's bytes, so the new one links to it.

use std::path::Path;

/// A regular file (not a link) holding exactly `contents`.
pub(super) fn same_file_contents(path: &Path, contents: &[u8]) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|meta| {
        meta.is_file()
            && meta.len() == contents.len() as u64
            && std::fs::read(path).is_ok_and(|bytes| bytes == contents)
    })
}

/// A regular file (not a link) with `new`'s bytes, compared a block at a time.
pub(super) fn same_files(old: &Path, new: &Path) -> bool {
    use std::io::Read;
    let (Ok(old_meta), Ok(new_meta)) = (std::fs::symlink_metadata(old), std::fs::metadata(new))
    else {
        return false;
    };
    if !old_meta.is_file() || old_meta.len() != new_meta.len() {
        return false;
    }
    let (Ok(mut a), Ok(mut b)) = (std::fs::File::open(old), std::fs::File::open(new)) else {
        return false;
    };
    let mut block_a = vec![0u8; 1 << 16];
    let mut block_b = vec![0u8; 1 << 16];
    loop {
        let Ok(n) = a.read(&mut block_a) else {
            return false;
        };
        if n == 0 {
            return true;
        }
        if b.read_exact(&mut block_b[..n]).is_err() || block_a[..n] != block_b[..n] {
            return false;
        }
    }
}
