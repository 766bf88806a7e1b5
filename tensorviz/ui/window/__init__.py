"""The main window: the area list, menus, settings, the torch loader, About, the screenshot tour."""
