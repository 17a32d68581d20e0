"""Exceptions shared by every layer: each names the problem and the fix."""

__all__ = [
    "MilabError", "InputError", "DatasetUnavailableError", "UnknownDatasetError",
    "ChecksumError", "DataFormatError", "DegenerateInputWarning",
]


class MilabError(Exception):
    """Base class of the errors milab-widgets raises on purpose."""


class InputError(MilabError, ValueError):
    """An argument has the wrong shape, type, value or content."""


class DatasetUnavailableError(MilabError, FileNotFoundError):
    """A registered dataset is not in the data home and has no packaged source."""


class UnknownDatasetError(MilabError, KeyError):
    """A dataset name that the registry does not know."""

    def __str__(self) -> str:  # KeyError quotes its message; show it plainly
        return str(self.args[0]) if self.args else ""


class ChecksumError(MilabError, ValueError):
    """A data file whose sha256 differs from the registry's."""


class DataFormatError(MilabError, ValueError):
    """A data file that exists but cannot be parsed as its registered format."""


class DegenerateInputWarning(UserWarning):
    """Valid input that leaves nothing to learn from (one sample, identical rows, every label
    constant): the result does not depend on the data. The estimators' counterpart of
    scikit-learn's ``UndefinedMetricWarning``; silence it with ``warnings.filterwarnings``."""
