"""Multi-label benchmarks (seeds 001 and 004): registry specs.

Relative paths follow the shared benchmark folder's ``multilabel/`` layout. Download URLs
pin the commit each file was taken from; the registered sha256 is checked on every fetch
and load, whatever the source.

* yeast, scene: MULAN's ARFF + XML files with MULAN's fixed train/test split.
* The 11 Yahoo web-page sets (Ueda & Saito 2002) in the ML-kNN / MDDM .mat layout with its
  2000/3000 split; names are lower case (the MFSEF paper's "Artificial" is ``arts``).
* rcv1subset1..5 (top 944 features): 6000 documents, 101 topics, binary features, no split.
"""

from __future__ import annotations

from types import MappingProxyType

from milab_widgets.data.multilabel_loaders import load_matlab_multilabel, load_mulan
from milab_widgets.data.specs import DataFile, DatasetSpec

__all__ = ["MULTILABEL_DATASETS", "YAHOO_NAMES"]

_MULAN_RAW = "https://raw.githubusercontent.com/tsoumakas/mulan/43f63890/data/multi-label/"
_PMLFS = "peipeilihfut/PMLFS_Partial-Multi-Label-Feature-Selection"
_PMLFS_RAW = f"https://raw.githubusercontent.com/{_PMLFS}/88e0711c/data/"
_RCV1_REPO = "ZesenChen/multi-label-dataset"
_RCV1_RAW = f"https://raw.githubusercontent.com/{_RCV1_REPO}/5f20611a/rcv1subset_top944/"

_MULAN_CITATION = (
    "Tsoumakas, G., Spyromitros-Xioufis, E., Vilcek, J., & Vlahavas, I. (2011). MULAN: A Java "
    "library for multi-label learning. JMLR 12, 2411-2414."
)
_YEAST_CITATION = (
    "Elisseeff, A., & Weston, J. (2002). A kernel method for multi-labelled classification. "
    "NIPS 14, 681-687. " + _MULAN_CITATION
)
_SCENE_CITATION = (
    "Boutell, M. R., Luo, J., Shen, X., & Brown, C. M. (2004). Learning multi-label scene "
    "classification. Pattern Recognition 37(9), 1757-1771. " + _MULAN_CITATION
)
_YAHOO_CITATION = (
    "Ueda, N., & Saito, K. (2002). Parametric mixture models for multi-labeled text. NIPS 15, "
    "721-728. Zhang, M.-L., & Zhou, Z.-H. (2007). ML-KNN: A lazy learning approach to "
    "multi-label learning. Pattern Recognition 40(7), 2038-2048."
)
_RCV1_CITATION = (
    "Lewis, D. D., Yang, Y., Rose, T. G., & Li, F. (2004). RCV1: A new benchmark collection for "
    "text categorization research. JMLR 5, 361-397. Zhang, Y., & Zhou, Z.-H. (2010). "
    "Multilabel dimensionality reduction via dependence maximization. ACM TKDD 4(3), 14."
)

#: Yahoo set -> (file name in the source repository, sha256, features, labels).
_YAHOO = {
    "arts": ("arts.mat", "978dfa84613f4bacf801f5292a31c7e8a40696b34a9c4c5b3514830d61f160d5", 462, 26),
    "business": ("Business.mat",
                 "b91c9069b80ce0e56ec4b018714d252c19c3fe7cfeec70038088647e1c39b00e", 438, 30),
    "computers": ("Computers.mat",
                  "8cb60b3cabc5f53206d4c18bd77dda2c01301fc0856651f901e593ed4c209b59", 681, 33),
    "education": ("education.mat",
                  "d5f9ddaa63060f0a5fc6e5699b687aba7c2c277784761957c517ca0f6355718e", 550, 33),
    "entertainment": ("Entertainment.mat",
                      "624bd824ec67786119fe58302a2983a57865f9dcf21d9ba0b8f40469f647a231", 640, 21),
    "health": ("Health.mat",
               "c60fc9fb960bd77a09961d84b29e9fa73a25445452742d5c784ffeae7f64075b", 612, 32),
    "recreation": ("recreation.mat",
                   "1832f4983d4758184fbcda96804d0b1e4cd5e221f956b2ec0776170b516c2177", 606, 22),
    "reference": ("ref.mat",
                  "01abf568b544e57f0218209e100a9e4bcd3c0940945b295c110913ef42b445c2", 793, 33),
    "science": ("science.mat",
                "05a3d13b24a9024a2cedd43a97b85d955a0ccefd428b78f718babe80feb86121", 743, 40),
    "social": ("social.mat",
               "374d81bd3de6b3e95f4ce2ded61dac6c0298dce866690b73ebb871b5beb2b012", 1047, 39),
    "society": ("Society.mat",
                "fe2c60b24712c4fa4d7706c56d88b29d9f686e1ece3853f1f42c310b839648ea", 636, 27),
}
YAHOO_NAMES = tuple(_YAHOO)

_RCV1_SHA256 = (
    "b2ee886a52fc33753a246afd5025e5e1bc91be8bc95533798e9abf87974f8495",
    "dcf47e73085ddc9ecd845c7574fe7762559db66dcdd6dd47a2864424ddda28b6",
    "09acb20453492a62b34fdd41190551a00caf21851fb4d63aa1f81d58a301640a",
    "983864d627187b91177958308aed1c5f27fa89aaa77c1389d1987b8418183053",
    "d7353bc859b4e604f3d0645e9a73b6417f2becc38c35eaa483348e08001e9312",
)


def _counts(samples, features, labels, train=None, test=None):
    split = {} if train is None else {"train": train, "test": test}
    return MappingProxyType(dict(samples=samples, features=features, labels=labels, **split))


def _mulan_spec(name, files, counts, citation, description) -> DatasetSpec:
    """A MULAN dataset: ``files`` = (file name, sha256) of the train ARFF, test ARFF, XML."""
    return DatasetSpec(
        name=name, kind="multilabel",
        files=tuple(DataFile(f"multilabel/{name}/{file}", digest, f"{_MULAN_RAW}{name}/{file}")
                    for file, digest in files),
        source_url=f"https://github.com/tsoumakas/mulan/tree/43f63890/data/multi-label/{name}",
        citation=citation, description=description, loader=load_mulan, counts=counts,
    )


def _yahoo_spec(name: str) -> DatasetSpec:
    source_file, digest, features, labels = _YAHOO[name]
    title = name.capitalize()
    return DatasetSpec(
        name=name, kind="multilabel",
        files=(DataFile(f"multilabel/yahoo/{title}.mat", digest, _PMLFS_RAW + source_file),),
        source_url=f"https://github.com/{_PMLFS}/tree/88e0711c/data",
        citation=_YAHOO_CITATION,
        description=(
            f"Yahoo '{title}' web pages (Ueda & Saito 2002) as distributed with ML-kNN/MDDM: "
            f"{features} word-frequency features scaled to [0, 1], {labels} sub-categories, "
            "fixed split 2000 train / 3000 test."
            + (" The MFSEF paper calls this set 'Artificial'." if name == "arts" else "")
        ),
        loader=load_matlab_multilabel, counts=_counts(5000, features, labels, 2000, 3000),
    )


def _rcv1_spec(number: int) -> DatasetSpec:
    file = f"rcv1subset{number}_top944.mat"
    return DatasetSpec(
        name=f"rcv1subset{number}", kind="multilabel",
        files=(DataFile(f"multilabel/rcv1subset_top944/{file}", _RCV1_SHA256[number - 1],
                        _RCV1_RAW + file),),
        source_url=f"https://github.com/{_RCV1_REPO}/tree/5f20611a/rcv1subset_top944",
        citation=_RCV1_CITATION,
        description=(
            f"RCV1 subset {number}: 6000 Reuters news stories, the 944 most frequent terms as "
            "binary features, 101 topic labels (some may have no positive story). No fixed "
            "split."
        ),
        loader=load_matlab_multilabel, counts=_counts(6000, 944, 101),
    )


MULTILABEL_DATASETS: tuple[DatasetSpec, ...] = (
    _mulan_spec(
        "yeast",
        (("yeast-train.arff", "e759dc991ff54694a4ff9c4314f3be0d6fd2b1994a4b563f57e416394c6aebbd"),
         ("yeast-test.arff", "4aaac102bff9669a765bf0b378602e5cc8c3b181048282e2f003117b496d552a"),
         ("yeast.xml", "c3056cc26444b5158b1588d1b73bec9c45429e10f0957ad085903423cb81f247")),
        _counts(2417, 103, 14, 1500, 917), _YEAST_CITATION,
        "Yeast genes: 103 micro-array expression and phylogenetic features, 14 functional "
        "classes; MULAN's fixed split 1500 train / 917 test.",
    ),
    _mulan_spec(
        "scene",
        (("scene-train.arff", "b53ba93bdf412de922e3960389bcee24744fa3e872ce610511fc1d750888b64d"),
         ("scene-test.arff", "ea38d20296b3ff7e220f477a3b802a9bcb2d768881fe6ee163efbc97ea527a42"),
         ("scene.xml", "55d8b247b949ad5c52e5a73d8c6775ec6e5469ce9682465b45b333b68ee4bcc5")),
        _counts(2407, 294, 6, 1211, 1196), _SCENE_CITATION,
        "Natural scenes: 294 colour moments of 7x7 image blocks (LUV), 6 labels (beach, "
        "sunset, fall foliage, field, mountain, urban); MULAN's split 1211 train / 1196 test.",
    ),
    *(_yahoo_spec(name) for name in YAHOO_NAMES),
    *(_rcv1_spec(number) for number in range(1, 6)),
)
