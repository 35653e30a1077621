"""The app's side of CalDAV sync: a controller that runs it off the UI thread, and the
dialog that asks which version of a conflicting event wins. The engine is ``agent.sync``."""
