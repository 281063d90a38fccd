"""Setting a game up by talking: understanding the table's answers, the set-up dialogue."""
