"""Preparation recipes of the one-class UCI benchmarks (the CDVSE paper, Table 1).

Each ``load_<dataset>(paths, name)`` reads the registered file and applies the recipe of the
shared data's ``uci/SOURCES.md``, so the class counts equal the paper's Table 1:

============== ================================ ======================== ==========================
dataset        file                             normal (+1) / outlier    preparation
============== ================================ ======================== ==========================
cancer         breast-cancer-wisconsin.data     benign 444 / malig. 239  drop 16 rows with '?', id
breast_cancer  keel_breast.csv                  no-recur. 186 / rec. 77  drop duplicate rows (277 ->
                                                                         263, IDA's unique patterns)
cleveland      cleveland.arff                   num >= 2: 83 / <= 1: 214 drop 6 rows with '?'
diabetes, pima pima-indians-diabetes.csv        0: 500 / 1: 268          none (the same data twice)
german         german.data.csv                  good 700 / bad 300       categories -> their numbers
heart          keel_heart_statlog.csv           absent 150 / present 120 oldpeak / 10 (KEEL x10)
hepatitis      hepatitis.data                   live 123 / die 32        '?' -> column median
housing        housing.data                     MEDV <= 21.4: 261 / 245  MEDV is the label only
liver          keel_bupa.csv                    selector 1: 145 / 2: 200 none
sonar          sonar.csv                        rock 97 / mine 111       none
thyroid        new-thyroid.csv                  normal 150 / hyper+hypo  none
                                                65
============== ================================ ======================== ==========================

Categorical values become numbers, keeping Table 1's feature counts (no one-hot columns):
* Breast_cancer: the interval attributes (age, tumor-size, inv-nodes) become their lower
  bound ("40-49" -> 40); yes/no -> 1/0; breast left/right -> 0/1; menopause lt40, ge40,
  premeno -> 0, 1, 2 and breast-quad left_up, left_low, right_up, right_low, central ->
  0..4 (UCI's listing order).
* German: each Axy code becomes its number within attribute x ("A43" -> 3, "A410" -> 10),
  which follows the UCI description's order (ordered for the status, history, savings,
  employment and property attributes).
* Cleveland's and Heart's categorical attributes are already numeric codes.
Missing values: rows with '?' are dropped (Cancer, Cleveland) except in Hepatitis, where
only 80 rows are complete; there each '?' becomes its column's median over all 155 rows (an
unsupervised preparation step, done once for the dataset like IDA's benchmark files).
Flare_solar has no recipe: IDA's 144-row version cannot be rebuilt from the UCI flare files.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from milab_widgets.data.oneclass import OneClassDataset
from milab_widgets.exceptions import DataFormatError

__all__ = [
    "load_cancer", "load_breast_cancer", "load_cleveland_heart", "load_pima", "load_german",
    "load_heart", "load_hepatitis", "load_housing", "load_liver", "load_sonar", "load_thyroid",
]

_REFETCH = ("fetch it again with `milab fetch <dataset> --force`, or check that it is the "
            "file named in the registry")

CANCER_FEATURES = ("clump_thickness", "cell_size_uniformity", "cell_shape_uniformity",
                   "marginal_adhesion", "epithelial_cell_size", "bare_nuclei",
                   "bland_chromatin", "normal_nucleoli", "mitoses")
BREAST_FEATURES = ("age", "menopause", "tumor_size", "inv_nodes", "node_caps", "deg_malig",
                   "breast", "breast_quad", "irradiat")
PIMA_FEATURES = ("pregnancies", "glucose", "blood_pressure", "skin_thickness", "insulin",
                 "bmi", "pedigree", "age")
GERMAN_FEATURES = ("checking_status", "duration", "credit_history", "purpose", "credit_amount",
                   "savings", "employment", "installment_rate", "personal_status",
                   "other_debtors", "residence_since", "property", "age",
                   "other_installment_plans", "housing", "existing_credits", "job",
                   "people_liable", "telephone", "foreign_worker")
HEART_FEATURES = ("age", "sex", "chest_pain", "resting_bp", "cholesterol", "fasting_sugar",
                  "resting_ecg", "max_heart_rate", "exercise_angina", "oldpeak", "slope",
                  "major_vessels", "thal")
HEPATITIS_FEATURES = ("age", "sex", "steroid", "antivirals", "fatigue", "malaise", "anorexia",
                      "liver_big", "liver_firm", "spleen_palpable", "spiders", "ascites",
                      "varices", "bilirubin", "alk_phosphate", "sgot", "albumin", "protime",
                      "histology")
HOUSING_FEATURES = ("crim", "zn", "indus", "chas", "nox", "rm", "age", "dis", "rad", "tax",
                    "ptratio", "b", "lstat")
LIVER_FEATURES = ("mcv", "alkphos", "sgpt", "sgot", "gammagt", "drinks")
THYROID_FEATURES = ("t3_resin", "thyroxin", "triiodothyronine", "tsh", "tsh_difference")
#: Housing: the only MEDV threshold giving the paper's 261 normal / 245 outliers.
HOUSING_THRESHOLD = 21.4

_MENOPAUSE = {"lt40": 0, "ge40": 1, "premeno": 2}
_QUADRANT = {"left_up": 0, "left_low": 1, "right_up": 2, "right_low": 3, "central": 4}
_SIDE = {"left": 0, "right": 1}
_YES_NO = {"no": 0, "yes": 1}


def _read(path, n_columns: int, **options) -> pd.DataFrame:
    """pandas.read_csv without a header, any parse failure, or fewer than ``n_columns``
    columns (a truncated or different file), as DataFormatError naming ``path``."""
    try:
        table = pd.read_csv(path, header=None, skipinitialspace=True, **options)
    except (ValueError, OSError) as error:
        raise DataFormatError(f"{path} cannot be read as a table ({error}); {_REFETCH}.") from error
    if table.shape[1] < n_columns:
        raise DataFormatError(f"{path} has {table.shape[1]} columns where {n_columns} are "
                              f"expected (a truncated or different file?); {_REFETCH}.")
    return table


def _dataset(features: pd.DataFrame, normal, name: str, path, feature_names) -> OneClassDataset:
    """Numeric features + a boolean "is normal" column -> OneClassDataset, or a clear error."""
    try:
        X = features.to_numpy(dtype=np.float64)
    except (ValueError, TypeError) as error:
        raise DataFormatError(
            f"{path}: non-numeric feature values ({error}); {_REFETCH}.") from error
    if X.shape[1] != len(feature_names) or not np.isfinite(X).all():
        raise DataFormatError(f"{path}: expected {len(feature_names)} complete numeric features, "
                              f"got {X.shape[1]} columns (or missing values); {_REFETCH}.")
    return OneClassDataset(X, np.where(np.asarray(normal), 1, -1), name, feature_names)


def _labels(column: pd.Series, normal, outlier, path) -> np.ndarray:
    """True where ``column`` is in ``normal``; raise if a value is in neither set."""
    unknown = sorted(set(column) - set(normal) - set(outlier), key=str)
    if unknown:
        raise DataFormatError(f"{path}: unexpected class value(s) {unknown[:5]}; {_REFETCH}.")
    return column.isin(normal).to_numpy()


def load_cancer(paths: Sequence[Path], name: str) -> OneClassDataset:
    """Wisconsin breast cancer (original): benign (2) normal, malignant (4) outlier."""
    table = _read(paths[0], 11, na_values="?").dropna()
    return _dataset(table.iloc[:, 1:10], _labels(table[10], {2}, {4}, paths[0]), name,
                    paths[0], CANCER_FEATURES)


def load_breast_cancer(paths: Sequence[Path], name: str) -> OneClassDataset:
    """Ljubljana breast cancer (KEEL copy): no-recurrence normal, recurrence outlier."""
    table = _read(paths[0], 10, dtype=str).drop_duplicates().reset_index(drop=True)
    try:
        features = pd.DataFrame({
            "age": table[0].map(_lower_bound), "menopause": table[1].map(_MENOPAUSE),
            "tumor_size": table[2].map(_lower_bound), "inv_nodes": table[3].map(_lower_bound),
            "node_caps": table[4].map(_YES_NO), "deg_malig": table[5].astype(float),
            "breast": table[6].map(_SIDE), "breast_quad": table[7].map(_QUADRANT),
            "irradiat": table[8].map(_YES_NO),
        })
    except (KeyError, ValueError) as error:
        raise DataFormatError(f"{paths[0]}: unexpected values ({error}); {_REFETCH}.") from error
    normal = _labels(table[9], {"no-recurrence-events"}, {"recurrence-events"}, paths[0])
    return _dataset(features, normal, name, paths[0], BREAST_FEATURES)


def _lower_bound(interval: str) -> float:
    """"40-49" -> 40.0."""
    return float(str(interval).split("-")[0])


def load_cleveland_heart(paths: Sequence[Path], name: str) -> OneClassDataset:
    """Cleveland heart disease (ARFF): num >= 2 normal (83), num <= 1 outlier (214)."""
    text = Path(paths[0]).read_text()
    names = re.findall(r"^@attribute\s+'?([^'\s]+)'?", text, flags=re.I | re.M)
    data = re.split(r"^@data\s*$", text, flags=re.I | re.M)
    if len(names) != 14 or len(data) != 2:
        raise DataFormatError(f"{paths[0]}: expected an ARFF file with 14 attributes and a "
                              f"@data section; {_REFETCH}.")
    table = _read(io.StringIO(data[1]), 14, na_values="?", comment="%").dropna()
    normal = table[13].to_numpy() >= 2
    return _dataset(table.iloc[:, :13], normal, name, paths[0], names[:13])


def load_pima(paths: Sequence[Path], name: str) -> OneClassDataset:
    """Pima Indians diabetes (also the paper's Diabetes): negative (0) normal, positive outlier."""
    table = _read(paths[0], 9)
    return _dataset(table.iloc[:, :8], _labels(table[8], {0}, {1}, paths[0]), name, paths[0],
                    PIMA_FEATURES)


def load_german(paths: Sequence[Path], name: str) -> OneClassDataset:
    """German credit: good (1) normal, bad (2) outlier; Axy codes -> y."""
    table = _read(paths[0], 21, dtype=str)
    features = table.iloc[:, :20].apply(
        lambda column: column.str.replace(f"^A{column.name + 1}", "", regex=True))
    normal = _labels(table[20].astype(int), {1}, {2}, paths[0])
    return _dataset(features, normal, name, paths[0], GERMAN_FEATURES)


def load_heart(paths: Sequence[Path], name: str) -> OneClassDataset:
    """Statlog heart (KEEL copy): absence (1) normal, presence (2) outlier; oldpeak / 10."""
    table = _read(paths[0], 14)
    features = table.iloc[:, :13].copy()
    features[9] = features[9] / 10.0
    return _dataset(features, _labels(table[13], {1}, {2}, paths[0]), name, paths[0],
                    HEART_FEATURES)


def load_hepatitis(paths: Sequence[Path], name: str) -> OneClassDataset:
    """Hepatitis: LIVE (2) normal, DIE (1) outlier; each '?' -> its column's median."""
    table = _read(paths[0], len(HEPATITIS_FEATURES) + 1, na_values="?")
    features = table.iloc[:, 1:].fillna(table.iloc[:, 1:].median())
    return _dataset(features, _labels(table[0], {2}, {1}, paths[0]), name, paths[0],
                    HEPATITIS_FEATURES)


def load_housing(paths: Sequence[Path], name: str) -> OneClassDataset:
    """Boston housing: MEDV <= 21.4 normal (261), above outlier (245); MEDV not a feature."""
    table = _read(paths[0], 14, sep=r"\s+")
    return _dataset(table.iloc[:, :13], table[13].to_numpy() <= HOUSING_THRESHOLD, name,
                    paths[0], HOUSING_FEATURES)


def load_liver(paths: Sequence[Path], name: str) -> OneClassDataset:
    """BUPA liver disorders (KEEL copy): selector 1 normal, 2 outlier."""
    table = _read(paths[0], 7)
    return _dataset(table.iloc[:, :6], _labels(table[6], {1}, {2}, paths[0]), name, paths[0],
                    LIVER_FEATURES)


def load_sonar(paths: Sequence[Path], name: str) -> OneClassDataset:
    """Sonar: rocks (R) normal, mines (M) outlier; 60 band energies."""
    table = _read(paths[0], 61)
    return _dataset(table.iloc[:, :60], _labels(table[60], {"R"}, {"M"}, paths[0]), name,
                    paths[0], [f"band_{i + 1}" for i in range(60)])


def load_thyroid(paths: Sequence[Path], name: str) -> OneClassDataset:
    """New thyroid: normal (1) normal, hyper (2) and hypo (3) outlier."""
    table = _read(paths[0], 6)
    return _dataset(table.iloc[:, :5], _labels(table[5], {1}, {2, 3}, paths[0]), name, paths[0],
                    THYROID_FEATURES)
