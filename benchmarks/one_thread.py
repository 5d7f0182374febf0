"""Imported first by the benchmarks that time bots in CPU time: numpy's linear algebra on
one thread, set before numpy loads.

With a second BLAS thread, the work done there goes uncounted by a thread's clock while the
first thread's spin-waiting for it, long under load, counts: CPU per decision would follow
the machine's load rather than the bot.
"""

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
