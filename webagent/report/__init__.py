"""Seeing runs: report.html, eval-report.html, the live view."""
