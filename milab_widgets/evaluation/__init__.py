"""Evaluation: splits, cross-validation protocols, fixed-parameter evaluation, result cache."""
