# Sourced by .ci/run. GNU time (/usr/bin/time) gives the peak RSS of the
# whole-process rows of `make bench-report`; bench/report's tests need it.
# Idempotent: installs nothing that is already present.
if [ ! -x /usr/bin/time ]; then
  echo "tools: installing Debian's time"
  if [ "$(id -u)" = 0 ]; then tools_sudo=""; else tools_sudo="sudo"; fi
  $tools_sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $tools_sudo apt-get install -y -qq time >/dev/null
fi
echo "tools: $(/usr/bin/time --version 2>&1 | head -1)"
