"""The screens of the terminal game: the table and its dialogs."""
