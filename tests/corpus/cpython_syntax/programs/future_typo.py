from __future__ import print
