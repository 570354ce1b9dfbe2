//! Helpers shared by the integration tests of `ai2048`.
#![allow(dead_code)] // Each test binary uses only some of them.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A command's output as text, whatever its bytes.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `ai2048 ARGS` to the end and returns what it printed.
pub fn ai2048(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_ai2048"))
        .args(args)
        .output()
        .expect("ai2048 runs")
}

/// Runs `ai2048 ARGS` with `stdin` on its standard input, to the end.
pub fn ai2048_with_stdin(args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ai2048"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ai2048 starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A path as the text of an argument.
pub fn path(p: &std::path::Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// A path ending in `.ext` in the temporary directory that no other test (or test run)
/// uses, removed when the guard drops (also when a test fails part way), with every
/// file beside it whose name starts with its stem (`NAME.json.partial`, `NAME.svg`).
pub fn temp_path(name: &str, ext: &str) -> TempPath {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    TempPath(std::env::temp_dir().join(format!(
        "ai2048-{}-{}-{name}-{n}.{ext}",
        env!("CARGO_CRATE_NAME").replace('_', "-"),
        std::process::id()
    )))
}

/// A path in the temporary directory that [`temp_path`] made: the file (or folder)
/// there, and those beside it named from it, are removed when it drops.
#[derive(Debug)]
pub struct TempPath(PathBuf);

impl std::ops::Deref for TempPath {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempPath {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let (Some(dir), Some(stem)) = (self.0.parent(), self.0.file_stem()) else {
            return;
        };
        let prefix = format!("{}.", stem.to_string_lossy());
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with(&prefix) {
                let path = entry.path();
                let _ = std::fs::remove_file(&path).or_else(|_| std::fs::remove_dir_all(&path));
            }
        }
    }
}

/// Asserts that a command failed, saying `message` on stderr; its stderr.
pub fn assert_fails(out: &std::process::Output, message: &str) -> String {
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "succeeded: {stderr}");
    assert!(stderr.contains(message), "{stderr:?} lacks {message:?}");
    stderr
}

/// The standard output of a command run with `args`, which must have succeeded.
pub fn stdout_of(out: &std::process::Output, args: &[&str]) -> String {
    let stdout = text(&out.stdout);
    assert!(
        out.status.success(),
        "{args:?} failed: {}\n{stdout}",
        text(&out.stderr)
    );
    stdout
}

/// Asserts that a command succeeded, printing `expected` on stdout; its stdout.
pub fn assert_prints(out: &std::process::Output, expected: &str) -> String {
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "failed: {}", text(&out.stderr));
    assert!(stdout.contains(expected), "{stdout:?} lacks {expected:?}");
    stdout
}

/// Asserts that `ai2048 COMMAND -q [DEFAULT] CASE` fails for each case, with its message
/// on stderr, no panic and nothing on stdout. `default` (a flag and its value) is left
/// out of the cases that give its flag.
pub fn assert_clear_errors(command: &str, default: [&str; 2], cases: &[(&[&str], &str)]) {
    for &(args, message) in cases {
        let mut all = vec![command, "-q"];
        if !args.contains(&default[0]) {
            all.extend(default);
        }
        all.extend_from_slice(args);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ai2048"))
            .args(&all)
            .output()
            .expect("ai2048 runs");
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(
            stderr.contains(message),
            "{args:?}: {stderr:?} lacks {message:?}"
        );
        // An error and its cause are each said once, not once as the error and
        // again as its source.
        assert_eq!(
            stderr.matches(message).count(),
            1,
            "{args:?}: {stderr:?} repeats {message:?}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out.stdout));
    }
}

/// Stops `ai2048 ARGS` as a user does with Ctrl-C, and returns its stdout.
///
/// Starts it, asks `progress` every 20 ms, with the time since the start, whether it
/// has done something worth keeping (and installed its Ctrl-C handler), then sends it
/// SIGINT and waits for it to stop. Each wait lasts 60 s at most. Asserts that it
/// exits with code 130 and does not panic.
#[cfg(unix)]
pub fn interrupt(args: &[&str], mut progress: impl FnMut(std::time::Duration) -> bool) -> String {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let name = format!("ai2048 {}", args.first().copied().unwrap_or_default());
    let mut child = Command::new(env!("CARGO_BIN_EXE_ai2048"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ai2048 starts");
    let started = Instant::now();
    while !progress(started.elapsed()) {
        if child.try_wait().expect("wait").is_some() {
            kill_and_panic(child, &format!("{name} ended before it made progress"));
        }
        if started.elapsed() > Duration::from_secs(60) {
            kill_and_panic(child, &format!("{name} made no progress in 60 s"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = signal_and_wait(child, "INT", &name);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(130), "{name}: {stdout}\n{stderr}");
    assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    stdout
}

/// Sends `child` (`name` in messages) the signal `signal` (`INT`, `TERM`) and waits
/// 60 s at most for it to end; what it printed and its status.
#[cfg(unix)]
pub fn signal_and_wait(
    child: std::process::Child,
    signal: &str,
    name: &str,
) -> std::process::Output {
    use std::time::{Duration, Instant};
    let mut child = child;
    let killed = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            kill_and_panic(child, &format!("{name} did not stop after SIG{signal}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// Kills `child` and panics with `message` and what it printed.
#[cfg(unix)]
fn kill_and_panic(mut child: std::process::Child, message: &str) -> ! {
    let _ = child.kill();
    let out = child.wait_with_output().expect("output");
    panic!("{message}\n{}\n{}", text(&out.stdout), text(&out.stderr));
}
