title = “Report”
