import pytest

from milab_widgets.mil import bag_distances
from tests.mil.conftest import bags_with_a_concept


@pytest.fixture(scope="module")
def problem():
    """Base distance matrices and labels of 36 bags whose positives share a concept."""
    bags = bags_with_a_concept(11, n_bags=36, concept_shift=25.0)
    return bag_distances(bags), bags.labels
