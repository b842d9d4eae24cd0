import sys
from pathlib import Path

# Lets the tests here import their shared `helpers` module.
sys.path.insert(0, str(Path(__file__).parent))
