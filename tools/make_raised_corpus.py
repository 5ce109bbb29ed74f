#!/usr/bin/env python3
"""Regenerate tests/corpus/raised: real runs raising inside installed torch, numpy, pandas, scikit-learn, requests
and CPython's standard library, each output kept verbatim, with a manifest (issue 25's battery).

Usage: python tools/make_raised_corpus.py [--python VENV_PYTHON] [--only SUBSTRING]

The programs run with a virtual environment's Python that has the libraries installed (`--python`; without it,
one is made under WORK with torch 2.13.0 (a CPU wheel), numpy, pandas, scikit-learn and requests). Each program
is a small file under WORK, so the paths of your code the outputs print are the same from run to run. The
manifest names, per output: the library (a distribution's name, `Python` for the standard library), its version
in that environment, the tail of the innermost frame's file (below site-packages or the standard library's
folder), and the folders the frames' paths start with (the test re-points them at the libraries installed where
it runs, or skips a case whose library is not installed there at that version).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "corpus" / "raised"
WORK = Path("/tmp/leafexplain-raised")
PACKAGES = ("torch==2.13.0", "numpy", "pandas", "scikit-learn", "requests")

# name -> (the library that raises, the program). Each raises inside that library's Python code (or inside
# a function of it that calls into its compiled part, whose innermost Python frame is the library's).
PROGRAMS: dict[str, tuple[str, str]] = {
    # torch
    "torch-register-hook": ("torch", "import torch\nx = torch.zeros(3)\nx.register_hook(lambda g: g)\n"),
    "torch-linear-shapes": ("torch", "import torch\nlayer = torch.nn.Linear(3, 4)\nlayer(torch.zeros(2, 5))\n"),
    "torch-load-missing": ("torch", "import torch\ntorch.load('/nonexistent/model.pt')\n"),
    "torch-backward-non-scalar": ("torch", "import torch\nx = torch.ones(2, requires_grad=True)\n(x * 2).backward()\n"),
    "torch-conv-channels": ("torch", "import torch\nconv = torch.nn.Conv2d(3, 8, 3)\nconv(torch.zeros(1, 4, 8, 8))\n"),
    "torch-empty-optimizer": ("torch", "import torch\ntorch.optim.SGD([], lr=0.1)\n"),
    "torch-batch-size-zero": ("torch", "import torch.utils.data as d\nd.DataLoader([1, 2, 3], batch_size=0)\n"),
    "torch-buffer-name-dot": ("torch", "import torch\ntorch.nn.Module().register_buffer('a.b', None)\n"),
    "torch-embedding-index": ("torch", "import torch\nemb = torch.nn.Embedding(10, 3)\nemb(torch.tensor([11]))\n"),
    # numpy
    "numpy-reshape": ("numpy", "import numpy as np\nnp.reshape(np.arange(6), (4, 4))\n"),
    "numpy-singular-inverse": ("numpy", "import numpy as np\nnp.linalg.inv(np.zeros((2, 2)))\n"),
    "numpy-cholesky": ("numpy", "import numpy as np\nnp.linalg.cholesky(-np.eye(2))\n"),
    "numpy-array-split-zero": ("numpy", "import numpy as np\nnp.array_split(np.arange(5), 0)\n"),
    "numpy-pad-mode": ("numpy", "import numpy as np\nnp.pad(np.zeros(3), 1, mode='bogus')\n"),
    "numpy-histogram-bins": ("numpy", "import numpy as np\nnp.histogram([1, 2, 3], bins=-1)\n"),
    # pandas
    "pandas-merge-no-common": (
        "pandas",
        "import pandas as pd\npd.DataFrame({'a': [1]}).merge(pd.DataFrame({'b': [1]}))\n",
    ),
    "pandas-concat-empty": ("pandas", "import pandas as pd\npd.concat([])\n"),
    "pandas-columns-mismatch": ("pandas", "import pandas as pd\npd.DataFrame([[1, 2]], columns=['a'])\n"),
    "pandas-read-csv-missing": ("pandas", "import pandas as pd\npd.read_csv('/nonexistent/data.csv')\n"),
    "pandas-set-index-missing": ("pandas", "import pandas as pd\npd.DataFrame({'a': [1]}).set_index('zz')\n"),
    "pandas-iloc-out-of-bounds": ("pandas", "import pandas as pd\npd.Series([1, 2]).iloc[5]\n"),
    "pandas-no-attribute": ("pandas", "import pandas as pd\npd.Series([1, 2]).reshape(2, 1)\n"),
    # scikit-learn
    "sklearn-not-fitted": (
        "scikit-learn",
        "from sklearn.linear_model import LogisticRegression\nLogisticRegression().predict([[1.0]])\n",
    ),
    "sklearn-inconsistent-samples": (
        "scikit-learn",
        "from sklearn.linear_model import LinearRegression\nLinearRegression().fit([[1], [2]], [1])\n",
    ),
    "sklearn-test-size": (
        "scikit-learn",
        "from sklearn.model_selection import train_test_split\ntrain_test_split([1, 2], test_size=5)\n",
    ),
    "sklearn-kmeans-clusters": (
        "scikit-learn",
        "from sklearn.cluster import KMeans\nKMeans(n_clusters=5, n_init=1).fit([[1.0], [2.0]])\n",
    ),
    "sklearn-invalid-parameter": (
        "scikit-learn",
        "from sklearn.linear_model import LogisticRegression\nLogisticRegression(C=-1).fit([[1.0], [2.0]], [0, 1])\n",
    ),
    "sklearn-unseen-label": (
        "scikit-learn",
        "from sklearn.preprocessing import LabelEncoder\nLabelEncoder().fit([1, 2]).transform([3])\n",
    ),
    # requests (no network: each raises before connecting)
    "requests-missing-schema": ("requests", "import requests\nrequests.get('example.com/data')\n"),
    "requests-no-adapter": ("requests", "import requests\nrequests.get('ftp://example.com/data')\n"),
    "requests-no-host": ("requests", "import requests\nrequests.get('http://')\n"),
    "requests-raise-for-status": (
        "requests",
        "import requests\nr = requests.Response()\nr.status_code = 404\nr.url = 'https://example.com/x'\n"
        "r.reason = 'Not Found'\nr.raise_for_status()\n",
    ),
    # CPython's standard library
    "stdlib-json-decode": ("Python", "import json\njson.loads('{bad')\n"),
    "stdlib-strptime": ("Python", "from datetime import datetime\ndatetime.strptime('2024-13-45', '%Y-%m-%d')\n"),
    "stdlib-subprocess-missing": ("Python", "import subprocess\nsubprocess.run(['/nonexistent/tool'])\n"),
    "stdlib-statistics-mean-empty": ("Python", "import statistics\nstatistics.mean([])\n"),
    "stdlib-ip-address": ("Python", "import ipaddress\nipaddress.ip_address('300.1.1.1')\n"),
    "stdlib-fraction-zero": ("Python", "from fractions import Fraction\nFraction(1, 0)\n"),
    "stdlib-re-compile": ("Python", "import re\nre.compile('(unclosed')\n"),
    "stdlib-tomllib": ("Python", "import tomllib\ntomllib.loads('key = ')\n"),
}
_FILE = re.compile(r'^  File "([^"]+)", line \d+', re.MULTILINE)


def venv_python(given: str | None) -> str:
    """The Python to run the programs with: `given`, else a virtual environment made under WORK."""
    if given:
        return given
    venv = WORK / "venv"
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *PACKAGES], check=True)
    return str(python)


def facts(python: str) -> dict[str, str]:
    """The environment's versions of the libraries, its site-packages and standard library folders."""
    script = (
        "import importlib.metadata as m, json, os, platform, sysconfig\n"
        "names = ['torch', 'numpy', 'pandas', 'scikit-learn', 'requests']\n"
        "out = {n: m.version(n) for n in names}\n"
        "out.update(Python=platform.python_version(), site=sysconfig.get_paths()['purelib'],"
        " stdlib=os.path.dirname(os.__file__))\n"
        "print(json.dumps(out))\n"
    )
    return json.loads(subprocess.run([python, "-c", script], check=True, capture_output=True, text=True).stdout)


def run(python: str, name: str, program: str) -> str:
    WORK.mkdir(parents=True, exist_ok=True)
    script = WORK / f"{name.replace('-', '_')}.py"
    script.write_text(program)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(NO_COLOR="1", PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run(
        [python, str(script)], cwd=WORK, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300
    )
    return done.stdout.decode("utf-8", errors="replace")


def innermost_tail(text: str, env: dict[str, str]) -> str | None:
    """The innermost frame's file below the site-packages or standard library folder it lies in."""
    files = _FILE.findall(text)
    if not files:
        return None
    last = files[-1]
    for folder in (env["site"], env["stdlib"]):
        if last.startswith(folder + "/"):
            return last[len(folder) + 1 :]
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--python", help="a virtual environment's python with the libraries installed")
    parser.add_argument("--only", help="only the programs whose name holds this")
    args = parser.parse_args()
    python = venv_python(args.python)
    env = facts(python)
    OUT.mkdir(parents=True, exist_ok=True)
    manifest_path = OUT / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    manifest["site"], manifest["stdlib"] = env["site"], env["stdlib"]
    cases = manifest.setdefault("cases", {})
    for name, (library, program) in PROGRAMS.items():
        if args.only and args.only not in name:
            continue
        text = run(python, name, program)
        tail = innermost_tail(text, env)
        if "Traceback" not in text or tail is None:
            sys.exit(f"{name}: did not raise inside a library:\n{text}")
        (OUT / f"{name}.txt").write_text(text)
        cases[name] = {"library": library, "version": env[library], "tail": tail}
        print(f"{name}: {library} {env[library]}, {tail}")
    manifest["cases"] = dict(sorted(cases.items()))
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")


if __name__ == "__main__":
    main()
