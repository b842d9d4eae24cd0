"""The Discord adapter: a discord.py client that translates gateway events and interactions
into the core's neutral types and implements the core's `ChatPort`. Only this package imports
discord."""
