#!/bin/sh
# bootstrap.sh - install the build dependencies (Debian), then configure and build
# in build/ (out of the source tree, so that tests/check.sh's own out-of-tree
# builds still work in the same clone: automake refuses a VPATH build once the
# source directory itself is configured).
# Usage: ./bootstrap.sh [configure options]    (as root, or with sudo available)
#        ./bootstrap.sh --deps                 only install packages and make ./configure
# The program is then build/diskbench.
set -eu
cd "$(dirname "$0")"

PKGS="build-essential autoconf automake pkg-config liburing-dev libaio-dev \
libnuma-dev libblkid-dev libinih-dev libjansson-dev libcmocka-dev python3 jq fdisk e2fsprogs bonnie++ fio \
libxml2-utils chromium btrfs-progs xfsprogs openmpi-bin libopenmpi-dev \
fuse3 libfuse3-dev hdparm bash-completion zsh dpkg-dev debhelper lintian man-db"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "bootstrap: installing$missing"
	SUDO=
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

# Regenerate when the build description is newer than what was made from it.
if ! [ configure -nt configure.ac ] || ! [ Makefile.in -nt Makefile.am ]; then
	autoreconf -fi
fi
[ "${1:-}" = --deps ] && exit 0
if [ -f config.status ]; then
	# An in-tree build made by an older bootstrap.sh: it would break every
	# out-of-tree build (ours and tests/check.sh's).
	echo "bootstrap: removing the in-tree build of an older bootstrap.sh (make distclean)"
	make distclean >/dev/null
fi
mkdir -p build
cd build
[ -f Makefile ] || ../configure "$@"
make -j"$(nproc)"
