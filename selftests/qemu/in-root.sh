#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run a command inside a build root (setup-newest.sh makes one), in a mount
# namespace of its own: /proc (objtool reads it) and /dev are mounted in it,
# and each --bind HOST_DIR:ROOT_DIR too; all of it goes when the command
# ends, whatever way it ends. The command gets a clean environment (no
# MAKEFLAGS of an outer make: it is another system's make).
#
# Usage: in-root.sh ROOT [--bind HOST_DIR:ROOT_DIR]... [--env NAME=VALUE]... -- CMD [ARG]...
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 ROOT [--bind SRC:DST]... [--env N=V]... -- CMD..." >&2; exit 2; }
BROOT=$(readlink -f "$1")
shift
BINDS=() ENVS=()
while [ $# -gt 0 ]; do
	case $1 in
	--bind) BINDS+=("$2"); shift 2 ;;
	--env) ENVS+=("$2"); shift 2 ;;
	--) shift; break ;;
	*) echo "in-root.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[ $# -ge 1 ] || { echo "in-root.sh: no command" >&2; exit 2; }
[ -x "$BROOT/bin/sh" ] || { echo "in-root.sh: $BROOT is not a root (make setup-newest)" >&2; exit 1; }

# The script the new namespace runs: mounts, then chroot. Arguments reach
# it as "$@", never through a shell string.
inner='
set -e
root=$1 nbinds=$2
shift 2
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
i=0
while [ "$i" -lt "$nbinds" ]; do
	src=${1%%:*} dst=${1#*:}
	mkdir -p "$root$dst"
	mount --bind "$src" "$root$dst"
	shift
	i=$((i + 1))
done
exec chroot "$root" "$@"
'
exec unshare --mount --propagation private --fork sh -c "$inner" in-root "$BROOT" "${#BINDS[@]}" \
	"${BINDS[@]}" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "${ENVS[@]}" "$@"
