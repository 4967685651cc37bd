"""Questions asked of many games: pandas in, pandas out."""
