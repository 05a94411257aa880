"""Symbols: a file's tree as its server lists it (`tree`), the words of every source file
(`words`), each file as last read (`entries`) and the index of names over them (`index`)."""
