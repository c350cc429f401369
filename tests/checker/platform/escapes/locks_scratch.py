"""Attack: leaves folders in its scratch folder that no one may enter or change, so that
the checker's cleanup fails; answers as the stub does."""
import os

for folder in ("locked/inner", "locked/other"):
    try:
        os.makedirs(folder)
        with open(os.path.join(folder, "kept"), "w") as stream:
            stream.write("@MARKER@")
    except OSError:
        pass
for folder in ("locked/inner", "locked/other", "locked"):
    try:
        os.chmod(folder, 0)
    except OSError:
        pass

highCardPoints = distributionPoints = openingBid = lambda hand: None  # noqa: E731
