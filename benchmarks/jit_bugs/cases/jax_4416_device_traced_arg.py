"""Source: https://github.com/jax-ml/jax/issues/4416
Library: plain-jax
Reported: calling a jitted face-matching function with jax.devices()[0] as its argument fails with "Argument 'cpu:0' of type <class 'jaxlib.xla_extension.CpuDevice'> is not a valid JAX type" (a comment in the thread).
Transcribed: the commenter's code, with the notebook's %timeit replaced by a plain call; minimal stand-ins were added for the names it uses from elsewhere in their notebook (descriptors, database, f, cosine_dist) and the imports; the error is raised on the argument before the body runs.
Hard: the value in the traced position is a Device object returned by jax.devices(), indexed.
"""
import io
import time

import numpy as np
import jax
import jax.numpy as jnp
from jax import jit

descriptors = jnp.ones((2, 4))
database = [("a", [np.ones(4)]), ("b", [np.zeros(4)])]
f = io.StringIO()

def cosine_dist(a, b):
    return 1.0 - jnp.dot(a, b) / (jnp.linalg.norm(a) * jnp.linalg.norm(b) + 1e-9)

def match_faces3(desc):
        #print(descriptors)
        #print(database.shape)
        distances = np.empty((len(desc), len(database)))
        #print("Descriptors ", descriptors)
        f.write("Descriptors")
        f.write(str(desc))
        time1 = time.time()
        for i, descr in enumerate(desc):
            for j, identity in enumerate(database):
                dist = []
                for k, id_desc in enumerate(identity[1]):
                    dist.append(cosine_dist(descr, id_desc))
                distances[i][j] = dist[jnp.argmin(jnp.asarray(dist))]
        time2 = time.time() - time1
        print("time2",time2)
        distances=distances.tolist()
        return jnp.asarray(distances)

jax.device_put(descriptors,jax.devices()[0])
matches_jit = jit(match_faces3)
matches_jit(jax.devices()[0])  # expect: jit-unsupported-argument
