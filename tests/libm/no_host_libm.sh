#!/usr/bin/env bash
# p2lrt's shared libraries import no transcendental function from the host's libm: each one
# they used would make a result depend on the machine (src/base/libm.hpp). Exact operations
# (sqrt, floor, fmod, ...) may come from anywhere.
#   no_host_libm.sh NM LIBRARY...
set -uo pipefail
nm=$1
shift
pattern='^(a?sin|a?cos|a?tan|atan2|sinh|cosh|tanh|exp|exp2|expm1|log|log2|log10|log1p|pow|hypot|cbrt|sincos|erf|erfc|tgamma|lgamma)[fl]?$'
status=0
for lib in "$@"; do
  found=$("$nm" -D --undefined-only "$lib" | awk '{print $2}' | sed 's/@.*//' | grep -E "$pattern" | tr '\n' ' ')
  if [[ -n "$found" ]]; then
    echo "no_host_libm: $lib calls the host's $found" >&2
    status=1
  else
    echo "no_host_libm: $lib calls no transcendental function of the host's libm"
  fi
done
exit $status
