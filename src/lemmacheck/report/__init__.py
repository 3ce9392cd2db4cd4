"""The report: results data rendered as HTML, JUnit XML, a badge and a history page, and the report
folder written so that nothing is torn and a selection never erases the full report."""
