//! Serving a session over a byte stream, such as stdin and stdout.

use std::io::{self, BufRead, Write};

use crate::Session;

/// Reads lines from `input` until its end and writes each answer, with a newline, to
/// `output`, flushing after every answer so that a client waiting for it gets it at
/// once. Blank lines get no answer; lines that are not UTF-8 get an error answer.
///
/// # Errors
///
/// Only when reading `input` or writing `output` fails (for example a broken pipe):
/// bad requests are answered, never returned as errors.
///
/// ```
/// use ai2048_protocol::{serve, Session};
///
/// let input = b"{\"op\":\"legal\",\"board\":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}\n\n{\"op\":\"fly\"}\n";
/// let mut output = Vec::new();
/// serve(&mut Session::default(), &input[..], &mut output)?;
/// assert_eq!(
///     String::from_utf8_lossy(&output),
///     "{\"dirs\":[\"down\",\"right\"]}\n\
///      {\"error\":\"unknown op \\\"fly\\\": expected apply, legal, spawns or best\"}\n"
/// );
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn serve<R: BufRead, W: Write>(
    session: &mut Session,
    mut input: R,
    mut output: W,
) -> io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        if let Some(mut answer) = session.handle_bytes(&line) {
            answer.push('\n');
            output.write_all(answer.as_bytes())?;
            output.flush()?;
        }
    }
}
