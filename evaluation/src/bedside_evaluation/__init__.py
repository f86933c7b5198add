"""Retrieval evaluation: paraphrased navigation queries on real books, and recall@k scoring.

The query sets name chapters of books in ../shared/corpus; the books themselves are read at
run time and never copied here.
"""

from bedside_evaluation.books import query_sets
from bedside_evaluation.queryset import NavigationQuery, QuerySet, query

__all__ = ["NavigationQuery", "QuerySet", "query", "query_sets"]
