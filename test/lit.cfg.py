# lit configuration of imeta's tests.
import os
import lit.formats

config.name = "imeta"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "unit", "gpu", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.imeta_obj_root, "test")

tools = [os.path.join(config.imeta_obj_root, "tools", t) for t in
         ("imeta-opt", "imeta-run", "imeta-gen")]
config.environment["PATH"] = os.pathsep.join(
    tools + [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# The compiled backends' cache: in the build tree, not the user's.
config.environment["IMETA_CACHE_DIR"] = os.path.join(
    config.imeta_obj_root, "test", "compile-cache")
config.substitutions.append(("%specs", os.path.join(config.imeta_src_root, "specs")))
config.substitutions.append(("FileCheck", "FileCheck --enable-var-scope"))

# A CUDA device here (the tests of what happens without one skip).
import shutil, subprocess
if shutil.which("nvidia-smi") and subprocess.run(
        ["nvidia-smi", "-L"], capture_output=True).returncode == 0:
    config.available_features.add("cuda-device")
# nvcc here (imeta-run --backend cuda compiles with it).
if shutil.which("nvcc"):
    config.available_features.add("nvcc")
# A device whose writes fail with ENOSPC (write-errors.test).
if os.path.exists("/dev/full"):
    config.available_features.add("dev-full")

# 4 GB of memory at most for one command (`sh -c '%limit_4g; CMD'`): an
# address-space limit, or in the sanitizer build (whose shadow memory
# reserves terabytes of address space) ASan's limit on resident memory;
# either way a tool that needs more dies instead of refusing in time.
if config.imeta_sanitize:
    config.substitutions.append(
        ("%limit_4g", "export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=4000"))
else:
    config.substitutions.append(("%limit_4g", "ulimit -v 4000000"))
