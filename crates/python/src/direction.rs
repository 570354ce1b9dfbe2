//! Directions between Python and Rust: Python passes a name (`"up"`, `"u"`, any case),
//! a move code (0 up, 1 down, 2 left, 3 right) or an `ai2048.Direction`, and gets
//! `ai2048.Direction` members back.

use ai2048_engine::Dir;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyString, PyType};

use crate::errors::{dir_error, value_error};

/// A direction as Python gives it: see [`dir_of`].
pub(crate) struct PyDir(pub(crate) Dir);

impl<'a, 'py> FromPyObject<'a, 'py> for PyDir {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<PyDir> {
        dir_of(&obj).map(PyDir)
    }
}

/// Reads a direction: a name (`"up"`, `"down"`, `"left"`, `"right"` or their initials,
/// in any case), a move code 0 to 3 (an `ai2048.Direction` is one), or anything with
/// `__index__` (a NumPy integer).
///
/// # Errors
///
/// `ValueError` for an unknown name or code, `TypeError` for anything else.
pub(crate) fn dir_of(obj: &Bound<'_, PyAny>) -> PyResult<Dir> {
    if let Ok(name) = obj.cast::<PyString>() {
        return name.to_cow()?.parse().map_err(|e| dir_error(&e));
    }
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(
            "a direction is a name or a move code, not a bool",
        ));
    }
    match obj.extract::<i64>() {
        Ok(code) => usize::try_from(code)
            .ok()
            .and_then(Dir::from_index)
            .ok_or_else(|| {
                value_error(format!(
                    "{code} is not a move code: expected 0 (up), 1 (down), 2 (left) or 3 (right)"
                ))
            }),
        Err(_) => Err(PyTypeError::new_err(format!(
            "a direction is a name (\"up\", \"down\", \"left\", \"right\") or a move code 0 to 3, not {}",
            obj.get_type().name()?
        ))),
    }
}

/// The `ai2048.Direction` member of `dir`.
pub(crate) fn py_dir<'py>(py: Python<'py>, dir: Dir) -> PyResult<Bound<'py, PyAny>> {
    static DIRECTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    DIRECTION
        .import(py, "ai2048._direction", "Direction")?
        .call1((dir.index(),))
}
