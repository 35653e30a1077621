"""Importing and exporting .ics files from the app (the work is agent.ics's)."""
