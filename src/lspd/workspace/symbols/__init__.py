"""Symbols: a file's tree as its server lists it (`tree`), the words of every source file
(`words`), each file as last read (`entries`), the index of names over them (`index`), the
symbol a location stands for (`naming`) and the servers' own search (`search`)."""
