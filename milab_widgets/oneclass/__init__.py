"""One-class learning: SVDD and its ensembles (Bagging, AdaBoost, CDVSE selective ensemble).

>>> from milab_widgets.oneclass import SVDD, CDVSESVDD
>>> import numpy as np
>>> X = np.random.default_rng(0).normal(size=(60, 2))
>>> CDVSESVDD(n_estimators=10, C=0.1, gamma=0.5, random_state=0).fit(X).predict([[9.0, 9.0]])
array([-1])
"""

from milab_widgets.oneclass.cdvse import CDVSESVDD
from milab_widgets.oneclass.ensembles import AdaBoostSVDD, BaggingSVDD
from milab_widgets.oneclass.spheres import Spheres
from milab_widgets.oneclass.svdd import SVDD

__all__ = ["SVDD", "AdaBoostSVDD", "BaggingSVDD", "CDVSESVDD", "Spheres"]
