//! Fixture sites for tests that run the real `curbside` binary.
//!
//! A [`Fixture`] is a temporary copy of this repository's own `content/` and
//! `layouts/`, changed by one mistake: a replaced line, a written, deleted or
//! linked file, or a whole file laid over it from `tests/fixtures/<name>/`.
//! Mutations panic when the real content no longer has what they change, so
//! a case never silently tests the unbroken site.
//!
//! The one place the Rust tests copy the project: tests/browser/support/preview.mjs
//! does the same for the JavaScript tests, tests/bench/preview.sh for the shell ones.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Once;

use tempfile::TempDir;

/// The repository: the site whose content and layouts fixtures copy.
pub fn project_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub struct Fixture {
    dir: TempDir,
}

impl Fixture {
    /// A copy of the project's content/ and layouts/.
    pub fn copy_of_project() -> Fixture {
        let dir = tempfile::Builder::new()
            .prefix("curbside-fixture-")
            .tempdir()
            .expect("create a temporary folder");
        for folder in ["content", "layouts"] {
            copy_tree(&project_root().join(folder), &dir.path().join(folder));
        }
        Fixture { dir }
    }

    /// A copy of the project whose frontend/ is the repository's own (linked):
    /// for builds and checks that list or run the islands.
    pub fn copy_with_frontend() -> Fixture {
        let fixture = Fixture::copy_of_project();
        fixture.with_frontend();
        fixture
    }

    /// A copy of the project with a frontend/ of its own, to edit and watch
    /// (`curbside serve --watch`): the repository's frontend/ copied, its
    /// node_modules/ a folder of links to the real packages (installed once
    /// per test run), so nothing is installed again while the caches the
    /// island server writes there stay the copy's own.
    pub fn copy_with_own_frontend() -> Fixture {
        static INSTALL: Once = Once::new();
        let frontend = project_root().join("frontend");
        INSTALL.call_once(|| {
            curbside::node::ensure_installed(&frontend).unwrap_or_else(|d| panic!("{d}"));
        });
        let fixture = Fixture::copy_of_project();
        copy_tree(&frontend, &fixture.path("frontend"));
        let modules = fixture.path("frontend/node_modules");
        std::fs::create_dir_all(&modules).expect("create node_modules/");
        for entry in std::fs::read_dir(frontend.join("node_modules")).expect("list node_modules/") {
            let entry = entry.expect("a folder entry");
            if entry.file_name() != ".cache" {
                std::os::unix::fs::symlink(entry.path(), modules.join(entry.file_name()))
                    .expect("link a package");
            }
        }
        fixture
    }

    /// A copy of the project with the files of `tests/fixtures/<name>/` laid
    /// over it, for mistakes that read best as a whole file.
    pub fn with_overlay(name: &str) -> Fixture {
        let fixture = Fixture::copy_of_project();
        let overlay = project_root().join("tests/fixtures").join(name);
        assert!(overlay.is_dir(), "no fixture {}", overlay.display());
        copy_tree(&overlay, fixture.root());
        fixture
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root().join(relative)
    }

    /// Replaces the one occurrence of `old` in `file` with `new`.
    pub fn replace(&self, file: &str, old: &str, new: &str) -> &Self {
        let path = self.path(file);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("read {file}: {err}"));
        let found = text.matches(old).count();
        assert_eq!(
            found, 1,
            "{file} should contain {old:?} exactly once, not {found} times; update this case to the current content"
        );
        std::fs::write(&path, text.replacen(old, new, 1)).expect("write the changed file");
        self
    }

    /// Writes `file`, creating its folder.
    pub fn write(&self, file: &str, contents: impl AsRef<[u8]>) -> &Self {
        let path = self.path(file);
        std::fs::create_dir_all(path.parent().expect("a file has a folder"))
            .expect("create the folder");
        std::fs::write(&path, contents).expect("write the file");
        self
    }

    /// Appends `text` to `file`.
    pub fn append(&self, file: &str, text: &str) -> &Self {
        self.rewrite(file, |contents| (contents + text).into_bytes())
    }

    /// Rewrites `file` through `change`.
    pub fn rewrite(&self, file: &str, change: impl FnOnce(String) -> Vec<u8>) -> &Self {
        let text = std::fs::read_to_string(self.path(file))
            .unwrap_or_else(|err| panic!("read {file}: {err}"));
        self.write(file, change(text))
    }

    pub fn remove(&self, file: &str) -> &Self {
        std::fs::remove_file(self.path(file)).unwrap_or_else(|err| panic!("remove {file}: {err}"));
        self
    }

    pub fn remove_folder(&self, folder: &str) -> &Self {
        std::fs::remove_dir_all(self.path(folder))
            .unwrap_or_else(|err| panic!("remove {folder}: {err}"));
        self
    }

    /// Creates the symbolic link `link` pointing at `target` (taken relative
    /// to the link's folder, as `ln -s` does).
    pub fn symlink(&self, target: &str, link: &str) -> &Self {
        let link = self.path(link);
        std::fs::create_dir_all(link.parent().expect("a link has a folder"))
            .expect("create the folder");
        std::os::unix::fs::symlink(target, &link).expect("create the symbolic link");
        self
    }

    /// Links the project's frontend/ into the fixture, for builds that get as
    /// far as starting Node.
    pub fn with_frontend(&self) -> &Self {
        std::os::unix::fs::symlink(project_root().join("frontend"), self.path("frontend"))
            .expect("link frontend/");
        self
    }

    /// Runs `curbside --root <fixture> check`.
    pub fn check(&self) -> Output {
        Command::new(env!("CARGO_BIN_EXE_curbside"))
            .arg("--root")
            .arg(self.root())
            .arg("check")
            .output()
            .expect("run the curbside binary")
    }

    /// Runs `curbside build --root <fixture> --out <fixture>/dist`.
    pub fn build(&self) -> Output {
        self.build_into("dist")
    }

    /// Runs `curbside build --root <fixture> --out <fixture>/<out>`.
    pub fn build_into(&self, out: &str) -> Output {
        Command::new(env!("CARGO_BIN_EXE_curbside"))
            .arg("build")
            .arg("--root")
            .arg(self.root())
            .arg("--out")
            .arg(self.path(out))
            .env_remove("SOURCE_DATE_EPOCH")
            .output()
            .expect("run the curbside binary")
    }

    /// Appends `markdown` to the privacy policy; returns `file:line:1` of it.
    pub fn append_to_policy(&self, markdown: &str) -> String {
        let file = "content/pages/privacypolicy.md";
        let text = std::fs::read_to_string(self.path(file)).expect("read the policy");
        let line = text.lines().count() + 2;
        self.write(file, format!("{text}\n{markdown}\n"));
        format!("{file}:{line}:1")
    }

    /// The build fails at `at` with a message containing `words`, keeping
    /// the last good dist/ (as [`Fixture::build_fails_at`] checks); and
    /// `check` reports the same.
    pub fn fails_in_build_and_check(&self, at: &str, words: &str) -> String {
        let error = self.build_fails_at(at);
        assert!(error.contains(words), "{error}");
        let output = self.check();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("error: {at}: ")) && stderr.contains(words),
            "{stderr}"
        );
        error
    }

    /// The published files under `dist/assets/img/` whose names start with `stem-`.
    pub fn published(&self, stem: &str) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(self.path("dist/assets/img"))
            .expect("list the published pictures")
            .map(|entry| entry.expect("entry").path())
            .filter(|path| {
                path.file_name()
                    .is_some_and(|name| name.to_string_lossy().starts_with(&format!("{stem}-")))
            })
            .collect();
        found.sort();
        found
    }

    /// Builds and insists that the build succeeds, showing its stderr when
    /// it does not.
    pub fn build_ok(&self) {
        let output = self.build();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "the build failed:\n{stderr}");
    }

    /// Builds over a previous `dist/` and checks that the build fails the way
    /// a user should see it fail:
    ///
    /// - it exits with 1, without a panic;
    /// - the first line of stderr that starts with `error:` reads
    ///   `error: <at>: `, where `at` is `file:line:column` (or just `file`
    ///   for mistakes that have no line, such as a missing file), and a
    ///   `help:` line below it says what to change;
    /// - the previous `dist/` is byte for byte as it was, and no staging
    ///   folder is left beside it.
    ///
    /// Returns stderr from the error on, with the fixture's folder written
    /// `[ROOT]`, for a snapshot. (What comes before the error is Node's log,
    /// with timings, in builds that get that far.)
    pub fn build_fails_at(&self, at: &str) -> String {
        let dist = self.path("dist");
        self.write("dist/index.html", "<p>the previous build</p>\n");
        self.write("dist/assets/site-0123456789.css", "body{}\n");
        let before = tree(&dist);

        let output = self.build();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();

        assert!(
            !stderr.contains("panicked"),
            "the build panicked:\n{stderr}"
        );
        assert_eq!(
            output.status.code(),
            Some(1),
            "the build should fail with exit code 1:\n{stderr}"
        );
        let error = stderr
            .match_indices("error: ")
            .map(|(start, _)| start)
            .find(|&start| start == 0 || stderr[..start].ends_with('\n'))
            .map(|start| &stderr[start..])
            .unwrap_or_else(|| panic!("no `error:` line in stderr:\n{stderr}"));
        assert!(
            error.starts_with(&format!("error: {at}: ")),
            "the error should be reported at {at}, but stderr is:\n{stderr}"
        );
        assert!(
            error.lines().any(|line| line.starts_with("  help: ")),
            "the error should say what to change on a `help:` line:\n{stderr}"
        );
        assert_eq!(
            tree(&dist),
            before,
            "the failed build changed the previous dist/"
        );
        let leftovers: Vec<String> = std::fs::read_dir(self.root())
            .expect("list the fixture")
            .map(|entry| entry.expect("a folder entry").file_name())
            .map(|name| name.to_string_lossy().into_owned())
            .filter(|name| name.starts_with(".dist"))
            .collect();
        assert!(
            leftovers.is_empty(),
            "the failed build left {leftovers:?} beside dist/"
        );
        error.replace(&self.root().display().to_string(), "[ROOT]")
    }
}

/// Every file under `dir`, by relative path, with its bytes.
pub fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|entry| entry.expect("walk the folder"))
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| {
            let relative = entry
                .path()
                .strip_prefix(dir)
                .expect("inside")
                .to_path_buf();
            (
                relative,
                std::fs::read(entry.path()).expect("read the file"),
            )
        })
        .collect()
}

/// Copies the files under `from` into `to`, merging with what is there.
/// No `node_modules/` is copied: a copy links to the real packages instead.
pub fn copy_tree(from: &Path, to: &Path) {
    let walk = walkdir::WalkDir::new(from)
        .into_iter()
        .filter_entry(|entry| entry.file_name() != "node_modules");
    for entry in walk {
        let entry = entry.expect("walk the folder");
        let target = to.join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("create the folder");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy the file");
        }
    }
}
