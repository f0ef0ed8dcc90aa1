"""The live table: its owner, what each reader sees, the sockets, the pages and the computer's seat."""
