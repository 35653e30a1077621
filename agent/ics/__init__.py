"""iCalendar (.ics) import and export, built on icalendar, recurring-ical-events and x-wr-timezone."""
