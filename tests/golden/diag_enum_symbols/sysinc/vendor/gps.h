/* A vendor header found through -isystem. */
enum vendor_mode { VENDOR_MODE_NONE, VENDOR_MODE_2D, VENDOR_MODE_3D };
