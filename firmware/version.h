/* version.h: the firmware's release, reported in INFO after the flags byte (the host's
 * hardware/protocol.py FIRMWARE names the release it ships; `reedboard doctor` compares). */
#ifndef VERSION_H
#define VERSION_H

#define FIRMWARE_RELEASE 2

#endif /* VERSION_H */
