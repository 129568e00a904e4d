"""The registration desk (`forcecheck serve`): a web front door over the same library as the CLI.

Needs the web extra (pip install "forcecheck[web]"); nothing here is imported by other commands.
"""
