#!/usr/bin/env python3
"""fscrypt_dir.py - encrypt an empty directory with fscrypt, no tool, no config.

Usage: fscrypt_dir.py DIR   (as root, DIR empty, on a file system with the
encrypt feature). Adds a random 64-byte key to the file system's keyring
(FS_IOC_ADD_ENCRYPTION_KEY) and sets a v2 policy on DIR
(FS_IOC_SET_ENCRYPTION_POLICY): what `fscrypt encrypt` does, without the
/etc/fscrypt.conf and metadata it would leave on the machine. The key goes
when the file system is unmounted. Exit 0, 77 when the kernel or the file
system cannot do it (the test skips), 1 on another error.
"""
import errno
import fcntl
import os
import struct
import sys

# linux/fscrypt.h
KEY_SPEC_TYPE_IDENTIFIER = 2
ADD_KEY_ARG = "II32sII32x"		# key_spec (type, reserved, u), raw_size, key_id
FS_IOC_ADD_ENCRYPTION_KEY = 0xC0506617	# _IOWR('f', 23, 80 bytes)
FS_IOC_SET_ENCRYPTION_POLICY = 0x800C6613	# _IOR('f', 19, struct fscrypt_policy_v1)
MODE_AES_256_XTS, MODE_AES_256_CTS = 1, 4
UNSUPPORTED = (errno.EOPNOTSUPP, errno.ENOTTY, errno.ENOPKG, errno.EINVAL)


def main():
    path = sys.argv[1]
    raw = os.urandom(64)
    arg = bytearray(struct.pack(ADD_KEY_ARG, KEY_SPEC_TYPE_IDENTIFIER, 0, b"", len(raw), 0)
                    + raw)
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.ioctl(fd, FS_IOC_ADD_ENCRYPTION_KEY, arg)
        ident = bytes(arg[8:24])	# the kernel fills in the key's identifier
        policy = struct.pack("BBBBB3x16s", 2, MODE_AES_256_XTS, MODE_AES_256_CTS, 0, 0, ident)
        fcntl.ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, policy)
    except OSError as e:
        print(f"fscrypt_dir.py: {path}: {os.strerror(e.errno)}", file=sys.stderr)
        return 77 if e.errno in UNSUPPORTED else 1
    finally:
        os.close(fd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
